import { Button, InputGroup, Menu, MenuItem, Popover, Spinner } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { UIEvent } from 'react';
import type { ActorRef, Snapshot } from 'xstate';
import type { Notice } from '../../domain/messages';
import type { NameOptionLike, NameOptionsContext, NameOptionsEvent } from '../../machines/factories/nameOptionsMachine';
import { useNoticeToasts } from './Notifications';

type OptionsSnapshot<TScope, TOption extends NameOptionLike> = Snapshot<unknown> & {
  readonly context: NameOptionsContext<TScope, TOption>;
  hasTag(tag: string): boolean;
  matches(state: string): boolean;
  can(event: NameOptionsEvent<TScope>): boolean;
};

/**
 * A filter of one name among many, read 20 a page (§9): a button with the choice, and a menu with a search, 'All'
 * and the options; scrolling to the end (or 'Load more') reads the next page while the last had 20.
 */
export function NameOptionSelect<TScope, TOption extends NameOptionLike>({
  actor,
  label,
  allLabel,
  selected,
  onSelect,
  disabled = false,
  testId,
}: {
  readonly actor: ActorRef<OptionsSnapshot<TScope, TOption>, NameOptionsEvent<TScope>, Notice>;
  readonly label: string;
  readonly allLabel: string;
  readonly selected: TOption | undefined;
  readonly onSelect: (option: TOption | undefined) => void;
  readonly disabled?: boolean;
  readonly testId: string;
}) {
  useNoticeToasts(actor);
  const options = useSelector(actor, (state) => state.context.options);
  const search = useSelector(actor, (state) => state.context.search);
  const loading = useSelector(actor, (state) => state.hasTag('loading'));
  const failed = useSelector(actor, (state) => state.matches('failure'));
  const canMore = useSelector(actor, (state) => state.can({ type: 'options.more' }));
  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const element = event.currentTarget;
    if (canMore && element.scrollTop + element.clientHeight >= element.scrollHeight - 8) {
      actor.send({ type: 'options.more' });
    }
  };
  return (
    <Popover
      placement="bottom-start"
      disabled={disabled}
      onOpening={() => actor.send({ type: 'options.open' })}
      content={
        <div className="name-option-select" data-testid={`${testId}-menu`}>
          <InputGroup
            leftIcon="search"
            placeholder="Search"
            aria-label={`Search ${label.toLowerCase()}`}
            defaultValue={search}
            data-testid={`${testId}-search`}
            onValueChange={(text) => actor.send({ type: 'options.search', text })}
          />
          <div className="name-option-list" onScroll={onScroll}>
            <Menu aria-label={label}>
              <MenuItem text={allLabel} active={selected === undefined} onClick={() => onSelect(undefined)} />
              {options.map((option) => (
                <MenuItem
                  key={option.id}
                  text={option.name}
                  active={selected?.id === option.id}
                  data-testid={`${testId}-option-${option.id}`}
                  onClick={() => onSelect(option)}
                />
              ))}
            </Menu>
            {loading ? <Spinner size={16} aria-label={`Loading ${label.toLowerCase()}`} /> : null}
            {failed ? (
              <Button small icon="refresh" text="Retry" onClick={() => actor.send({ type: 'options.retry' })} />
            ) : null}
            {canMore && !loading ? (
              <Button
                small
                minimal
                text="Load more"
                data-testid={`${testId}-more`}
                onClick={() => actor.send({ type: 'options.more' })}
              />
            ) : null}
          </div>
        </div>
      }
    >
      <Button
        rightIcon="caret-down"
        disabled={disabled}
        data-testid={testId}
        aria-label={`${label}: ${selected?.name ?? allLabel}`}
        text={selected?.name ?? allLabel}
      />
    </Popover>
  );
}
