import { Button, Callout, FormGroup, HTMLSelect, PopoverNext, Radio, RadioGroup } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { HOURS } from '../../domain/dateLimits';
import { ALL_DAY_TEXT, CUSTOM_TEXT } from '../../domain/filterOptions';
import { formatHour, formatHourRange } from '../../domain/format';
import type { hourPickerMachine } from '../../machines/hourPickerMachine';

export type HourPickerRef = ActorRefFrom<typeof hourPickerMachine>;

export interface HourPickerProps {
  /** The picker actor: the filter header's `snapshot.children.hourPicker`, or a page's own. */
  readonly actorRef: HourPickerRef;
}

const HOUR_OPTIONS = HOURS.map((hour) => ({ value: hour, label: formatHour(hour) }));

/**
 * The hour range picker of Header V2 (§2): a button with the committed hours ('12:00am-12:00am' for the
 * whole day, else 'hh:00 A - hh:00 A'); its panel has All Day / Custom, From and To, the message,
 * Cancel and Apply. Focusing From or To switches to Custom.
 */
export function HourPicker({ actorRef }: HourPickerProps) {
  const mode = useSelector(actorRef, (state) => state.context.mode);
  const draft = useSelector(actorRef, (state) => state.context.draft);
  const committed = useSelector(actorRef, (state) => state.context.committed);
  const errorMessage = useSelector(actorRef, (state) => state.context.errorMessage);
  const isOpen = useSelector(actorRef, (state) => state.matches('open'));
  const canOpen = useSelector(actorRef, (state) => state.can({ type: 'hours.open' }));
  const canCancel = useSelector(actorRef, (state) => state.can({ type: 'hours.cancel' }));
  const send = actorRef.send;
  const cancel = () => {
    if (canCancel) send({ type: 'hours.cancel' });
  };

  const panel = (
    <div className="hour-picker-panel" data-testid="hour-picker-panel">
      <RadioGroup
        selectedValue={mode}
        onChange={(event) => {
          send(event.currentTarget.value === 'all' ? { type: 'hours.selectAll' } : { type: 'hours.focus' });
        }}
      >
        <Radio value="all" label={ALL_DAY_TEXT} />
        <Radio value="custom" label={CUSTOM_TEXT} />
      </RadioGroup>
      <div className="filter-panel-columns">
        <FormGroup label="From" labelFor="hour-picker-from">
          <HTMLSelect
            id="hour-picker-from"
            data-testid="hour-picker-from"
            value={draft.from}
            options={HOUR_OPTIONS}
            onFocus={() => send({ type: 'hours.focus' })}
            onChange={(event) => send({ type: 'hours.changeFrom', hour: Number(event.currentTarget.value) })}
          />
        </FormGroup>
        <FormGroup label="To" labelFor="hour-picker-to">
          <HTMLSelect
            id="hour-picker-to"
            data-testid="hour-picker-to"
            value={draft.to}
            options={HOUR_OPTIONS}
            onFocus={() => send({ type: 'hours.focus' })}
            onChange={(event) => send({ type: 'hours.changeTo', hour: Number(event.currentTarget.value) })}
          />
        </FormGroup>
      </div>
      {errorMessage ? (
        <Callout intent="danger" compact data-testid="hour-picker-error">
          {errorMessage}
        </Callout>
      ) : null}
      <div className="filter-panel-actions">
        <Button text="Cancel" data-testid="hour-picker-cancel" onClick={cancel} />
        <Button
          intent="primary"
          text="Apply"
          data-testid="hour-picker-apply"
          onClick={() => send({ type: 'hours.apply' })}
        />
      </div>
    </div>
  );

  return (
    <PopoverNext
      isOpen={isOpen}
      content={panel}
      placement="bottom-start"
      onInteraction={(nextOpen) => {
        if (!nextOpen) cancel();
      }}
    >
      <Button
        icon="time"
        endIcon="caret-down"
        text={formatHourRange(committed)}
        data-testid="hour-picker"
        disabled={!isOpen && !canOpen}
        onClick={() => {
          if (!isOpen) send({ type: 'hours.open' });
        }}
      />
    </PopoverNext>
  );
}
