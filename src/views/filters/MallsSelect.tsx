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
  const headerActor = FilterHeaderContext.useActorRef();
  const malls = FilterHeaderContext.useSelector((state) => state.context.malls);
  const mallIds = FilterHeaderContext.useSelector((state) => state.context.filters.mallIds);
  const mallDraft = FilterHeaderContext.useSelector((state) => state.context.mallDraft);
  const mallError = FilterHeaderContext.useSelector((state) => state.context.mallError);
  const isOpen = FilterHeaderContext.useSelector((state) => state.matches({ mallSelect: 'open' }));
  const loading = FilterHeaderContext.useSelector((state) => state.hasTag('mallsLoading'));
  const canApply = FilterHeaderContext.useSelector((state) => state.can({ type: 'malls.apply' }));
  const canCancel = FilterHeaderContext.useSelector((state) => state.can({ type: 'malls.cancel' }));
  const canOpen = FilterHeaderContext.useSelector((state) => state.can({ type: 'malls.open' }));
  const selectedNames = malls.filter((mall) => mallIds.includes(mall.id)).map((mall) => mall.name);

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
        {malls.map((mall) => (
          <Checkbox
            key={mall.id}
            label={mall.name}
            checked={mallDraft.includes(mall.id)}
            data-testid={`malls-option-${mall.id}`}
            onChange={() => headerActor.send({ type: 'malls.toggle', mallId: mall.id })}
          />
        ))}
      </div>
      {mallError ? (
        <Callout intent="danger" compact data-testid="malls-error">
          {mallError}
        </Callout>
      ) : null}
      <div className="malls-panel-footer">
        <Button
          intent="primary"
          text="Apply"
          data-testid="malls-apply"
          disabled={!canApply}
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
        if (!nextOpen && canCancel) headerActor.send({ type: 'malls.cancel' });
      }}
    >
      <Button
        icon="shop"
        endIcon="caret-down"
        text={selectionLabel(selectedNames, malls.length)}
        title={selectedNames.join(', ')}
        data-testid="malls-select"
        loading={loading}
        disabled={!isOpen && !canOpen}
        onClick={() => {
          if (!isOpen) headerActor.send({ type: 'malls.open' });
        }}
      />
    </PopoverNext>
  );
}
