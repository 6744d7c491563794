import {
  Button,
  Callout,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  PopoverNext,
  Radio,
  RadioGroup,
} from '@blueprintjs/core';
import { DateInput3, TimePicker } from '@blueprintjs/datetime2';
import { useSelector } from '@xstate/react';
import dayjs from 'dayjs';
import type { ActorRefFrom } from 'xstate';
import {
  type DatePart,
  type DateRangeOption,
  type DateWindow,
  daysInMonthOf,
  isDateDisabled,
  isValidDate,
  TIME_FORMAT,
  toDateString,
  yearOptions,
} from '../../domain/dateLimits';
import { DATE_RANGE_OPTION_LABELS, SET_DATE_FROM_TEXT, SET_DATE_TO_TEXT } from '../../domain/filterOptions';
import { formatDateRange, formatMonthShort } from '../../domain/format';
import type { dateRangePickerMachine } from '../../machines/dateRangePickerMachine';
import { DateRangeExceededAlert } from './DateRangeExceededAlert';
import './filters.css';

export type DateRangePickerRef = ActorRefFrom<typeof dateRangePickerMachine>;

export interface DateRangePickerProps {
  /** The picker actor: the filter header's `snapshot.children.dateRangePicker`, or a page's own. */
  readonly actorRef: DateRangePickerRef;
}

const MONTHS = Array.from({ length: 12 }, (_, index) => ({ value: index + 1, label: formatMonthShort(index + 1) }));

function isDateRangeOption(value: string): value is DateRangeOption {
  return Object.hasOwn(DATE_RANGE_OPTION_LABELS, value);
}

interface OptionRadio {
  readonly option: DateRangeOption;
  /** Why a preset cannot be chosen: the radio is disabled and says why in its title. */
  readonly disabledReason: string | undefined;
}

function dateFromTime(time: string | undefined): Date {
  return dayjs(`2000-01-01 ${time ?? '00:00:00'}`).toDate();
}

interface DateFieldProps {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly window: DateWindow;
  readonly onChange: (date: string) => void;
}

/** How far before the earliest (or latest) selectable date a typed date still reaches the machine. */
const TYPED_YEARS_BACK = 20;

/**
 * One day of the range: a text input (YYYY-MM-DD) with a calendar whose days outside the window are disabled.
 * Whatever is typed reaches the machine, which says what is wrong with it (a future date, a date before the
 * earliest, a malformed one): the input's own bounds are wider than the window, so that Blueprint neither
 * keeps a typed date to itself nor replaces it with its own text; an empty or unreadable input is sent as ''.
 */
function DateField({ id, label, value, window, onChange }: DateFieldProps) {
  return (
    <FormGroup label={label} labelFor={id} data-testid={id}>
      <DateInput3
        value={isValidDate(value) ? value : null}
        formatDate={(date) => toDateString(date)}
        parseDate={(text) => (isValidDate(text) ? dayjs(text).toDate() : false)}
        placeholder="YYYY-MM-DD"
        minDate={dayjs(window.earliest ?? window.latest)
          .subtract(TYPED_YEARS_BACK, 'year')
          .startOf('year')
          .toDate()}
        maxDate={dayjs(window.latest).add(1, 'year').endOf('year').toDate()}
        dayPickerProps={{ disabled: (day: Date) => isDateDisabled(toDateString(day), window) }}
        canClearSelection={false}
        popoverProps={{ usePortal: false }}
        inputProps={{ id, name: id }}
        onChange={(date) => onChange(date === null ? '' : date.slice(0, 10))}
        onError={(date) => onChange(Number.isNaN(date.getTime()) ? '' : toDateString(date))}
      />
    </FormGroup>
  );
}

interface DateSelectsProps {
  readonly title: string;
  readonly testId: string;
  readonly value: string;
  readonly window: DateWindow;
  readonly onChange: (part: DatePart, value: number) => void;
}

/** Mobile: the day, month and year selects of one date. */
function DateSelects({ title, testId, value, window, onChange }: DateSelectsProps) {
  const date = dayjs(value);
  return (
    <FormGroup label={title}>
      <div className="date-range-picker" data-testid={testId}>
        <HTMLSelect
          aria-label={`${title} day`}
          value={date.date()}
          options={daysInMonthOf(value).map((day) => ({ value: day, label: String(day) }))}
          onChange={(event) => onChange('day', Number(event.currentTarget.value))}
        />
        <HTMLSelect
          aria-label={`${title} month`}
          value={date.month() + 1}
          options={MONTHS}
          onChange={(event) => onChange('month', Number(event.currentTarget.value))}
        />
        <HTMLSelect
          aria-label={`${title} year`}
          value={date.year()}
          options={yearOptions(window).map((year) => ({ value: year, label: String(year) }))}
          onChange={(event) => onChange('year', Number(event.currentTarget.value))}
        />
      </div>
    </FormGroup>
  );
}

/**
 * The Date Period picker (§2): a button with the committed range ('D MMM - D MMM'); its panel has the
 * quick ranges and the calendar presets (one the user may not choose is disabled, its title saying why), the
 * '(Max range of N days)' note, From and To (and times for a datetime picker), the inline message, Cancel and
 * Apply; the 'Date Range Exceeded' alert. On mobile a dialog of day, month and
 * year selects (Set Date From, Set Date To; Cancel, Okay). Everything shown comes from the machine.
 */
export function DateRangePicker({ actorRef }: DateRangePickerProps) {
  const committed = useSelector(actorRef, (state) => state.context.committed);
  const draft = useSelector(actorRef, (state) => state.context.draft);
  const window = useSelector(actorRef, (state) => state.context.window);
  const type = useSelector(actorRef, (state) => state.context.type);
  const variant = useSelector(actorRef, (state) => state.context.variant);
  const selectedOption = useSelector(actorRef, (state) => state.context.option);
  const quickRangesShown = useSelector(actorRef, (state) => state.context.quickRangesShown);
  const presets = useSelector(actorRef, (state) => state.context.presets);
  const note = useSelector(actorRef, (state) => state.context.note);
  const errorMessage = useSelector(actorRef, (state) => state.context.errorMessage);
  const alertContent = useSelector(actorRef, (state) => state.context.alert);
  const rangeWarning = useSelector(actorRef, (state) => state.context.rangeWarning);
  const isOpen = useSelector(actorRef, (state) => state.matches('open'));
  const alertShown = useSelector(actorRef, (state) => state.matches({ open: 'exceeded' }));
  const canOpen = useSelector(actorRef, (state) => state.can({ type: 'dateRange.open' }));
  const canCancel = useSelector(actorRef, (state) => state.can({ type: 'dateRange.cancel' }));
  const send = actorRef.send;
  const datetime = type === 'datetime';

  const label =
    formatDateRange(committed.start, committed.end, window.latest) +
    (datetime ? ` (${committed.startTime ?? ''} - ${committed.endTime ?? ''})` : '');
  const cancel = () => {
    if (canCancel) send({ type: 'dateRange.cancel' });
  };
  const button = (
    <Button
      icon="calendar"
      endIcon="caret-down"
      text={label}
      data-testid="date-range-button"
      disabled={!isOpen && !canOpen}
      onClick={() => {
        if (!isOpen) send({ type: 'dateRange.open' });
      }}
    />
  );
  const message = errorMessage ? (
    <Callout intent="danger" compact data-testid="date-range-error">
      {errorMessage}
    </Callout>
  ) : rangeWarning ? (
    <Callout intent="warning" compact title={rangeWarning.title} data-testid="date-range-warning" role="status">
      {rangeWarning.message}
    </Callout>
  ) : null;
  const alert = (
    <DateRangeExceededAlert
      isOpen={alertShown}
      title={alertContent?.title}
      message={alertContent?.message ?? ''}
      onClose={() => send({ type: 'dateRange.dismissAlert' })}
    />
  );
  const applyButton = (text: string) => (
    <Button
      intent="primary"
      text={text}
      data-testid="date-range-apply"
      onClick={() => send({ type: 'dateRange.apply' })}
    />
  );
  const cancelButton = <Button text="Cancel" data-testid="date-range-cancel" onClick={cancel} />;
  const radios: readonly OptionRadio[] = [
    { option: 'last7', disabledReason: undefined },
    { option: 'last30', disabledReason: undefined },
    ...presets.map((preset) => ({ option: preset.id, disabledReason: preset.disabledReason })),
    { option: 'custom', disabledReason: undefined },
  ];

  if (variant === 'mobile') {
    return (
      <>
        {button}
        <Dialog isOpen={isOpen} onClose={cancel} title="Date Period" data-testid="date-range-dialog">
          <DialogBody>
            <DateSelects
              title={SET_DATE_FROM_TEXT}
              testId="date-range-from"
              value={draft.start}
              window={window}
              onChange={(part, value) => send({ type: 'dateRange.changeStartPart', part, value })}
            />
            <DateSelects
              title={SET_DATE_TO_TEXT}
              testId="date-range-to"
              value={draft.end}
              window={window}
              onChange={(part, value) => send({ type: 'dateRange.changeEndPart', part, value })}
            />
            {note ? <p className={Classes.TEXT_MUTED}>{note}</p> : null}
            {message}
          </DialogBody>
          <DialogFooter
            actions={
              <>
                {cancelButton}
                {applyButton('Okay')}
              </>
            }
          />
        </Dialog>
        {alert}
      </>
    );
  }

  const panel = (
    <div className="date-range-panel" data-testid="date-range-panel">
      {quickRangesShown ? (
        <RadioGroup
          selectedValue={selectedOption}
          onChange={(event) => {
            const option = event.currentTarget.value;
            if (isDateRangeOption(option)) send({ type: 'dateRange.selectOption', option });
          }}
        >
          {radios.map(({ option, disabledReason }) =>
            disabledReason === undefined ? (
              <Radio key={option} value={option} label={DATE_RANGE_OPTION_LABELS[option]} />
            ) : (
              <Radio
                key={option}
                value={option}
                disabled
                title={disabledReason}
                labelElement={<span title={disabledReason}>{DATE_RANGE_OPTION_LABELS[option]}</span>}
              />
            ),
          )}
        </RadioGroup>
      ) : null}
      {note ? <p className={Classes.TEXT_MUTED}>{note}</p> : null}
      <div className="filter-panel-columns">
        <div>
          <DateField
            id="date-range-from"
            label="From"
            value={draft.start}
            window={window}
            onChange={(date) => send({ type: 'dateRange.changeStart', date })}
          />
          {datetime ? (
            <TimePicker
              precision="second"
              value={dateFromTime(draft.startTime)}
              onChange={(time) => send({ type: 'dateRange.changeStartTime', time: dayjs(time).format(TIME_FORMAT) })}
            />
          ) : null}
        </div>
        <div>
          <DateField
            id="date-range-to"
            label="To"
            value={draft.end}
            window={window}
            onChange={(date) => send({ type: 'dateRange.changeEnd', date })}
          />
          {datetime ? (
            <TimePicker
              precision="second"
              value={dateFromTime(draft.endTime)}
              onChange={(time) => send({ type: 'dateRange.changeEndTime', time: dayjs(time).format(TIME_FORMAT) })}
            />
          ) : null}
        </div>
      </div>
      {message}
      <div className="filter-panel-actions">
        {cancelButton}
        {applyButton('Apply')}
      </div>
    </div>
  );

  return (
    <>
      <PopoverNext
        isOpen={isOpen}
        content={panel}
        placement="bottom-start"
        onInteraction={(nextOpen) => {
          if (!nextOpen) cancel();
        }}
      >
        {button}
      </PopoverNext>
      {alert}
    </>
  );
}
