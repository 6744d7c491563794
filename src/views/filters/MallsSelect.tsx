import { Button, Callout, Checkbox, PopoverNext } from '@blueprintjs/core';
import { DESELECT_ALL_TEXT, SELECT_ALL_TEXT } from '../../domain/filterOptions';
import { FilterHeaderContext } from './filterHeaderContext';

/** The button's text: the selected malls' names, or how many when there are more than two. */
function selectionLabel(names: readonly string[], total: number): string {
  if (names.length === 0) return 'Malls';
  if (names.length === total && total > 2) return `All malls (${total})`;
  if (names.length > 2) return `${names.length} malls`;
  return names.join(', ');
}

/**
 * The Malls multi-select (§2): ticks, Select All, Deselect All and Apply; 'Please select a mall' when
 * Apply finds none ticked. Closing the panel without Apply keeps the committed malls.
 */
export function MallsSelect() {
  const state = FilterHeaderContext.useSelector((snapshot) => snapshot);
  const headerActor = FilterHeaderContext.useActorRef();
  const { context } = state;
  const isOpen = state.matches({ mallSelect: 'open' });
  const selectedNames = context.malls
    .filter((mall) => context.filters.mallIds.includes(mall.id))
    .map((mall) => mall.name);

  const panel = (
    <div className="malls-panel" data-testid="malls-panel">
      <div className="malls-panel-actions">
        <Button
          size="small"
          text={SELECT_ALL_TEXT}
          data-testid="malls-select-all"
          onClick={() => headerActor.send({ type: 'malls.selectAll' })}
        />
        <Button
          size="small"
          text={DESELECT_ALL_TEXT}
          data-testid="malls-deselect-all"
          onClick={() => headerActor.send({ type: 'malls.deselectAll' })}
        />
      </div>
      <div className="malls-panel-list">
        {context.malls.map((mall) => (
          <Checkbox
            key={mall.id}
            label={mall.name}
            checked={context.mallDraft.includes(mall.id)}
            data-testid={`malls-option-${mall.id}`}
            onChange={() => headerActor.send({ type: 'malls.toggle', mallId: mall.id })}
          />
        ))}
      </div>
      {context.mallError ? (
        <Callout intent="danger" compact data-testid="malls-error">
          {context.mallError}
        </Callout>
      ) : null}
      <div className="malls-panel-footer">
        <Button
          intent="primary"
          text="Apply"
          data-testid="malls-apply"
          disabled={!state.can({ type: 'malls.apply' })}
          onClick={() => headerActor.send({ type: 'malls.apply' })}
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
        if (!nextOpen && state.can({ type: 'malls.cancel' })) headerActor.send({ type: 'malls.cancel' });
      }}
    >
      <Button
        icon="shop"
        endIcon="caret-down"
        text={selectionLabel(selectedNames, context.malls.length)}
        title={selectedNames.join(', ')}
        data-testid="malls-select"
        loading={state.hasTag('mallsLoading')}
        disabled={!isOpen && !state.can({ type: 'malls.open' })}
        onClick={() => {
          if (!isOpen) headerActor.send({ type: 'malls.open' });
        }}
      />
    </PopoverNext>
  );
}
