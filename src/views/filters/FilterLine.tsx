import { Button } from '@blueprintjs/core';
import { type ReactNode, useId } from 'react';
import { filterLineText } from '../../domain/filterHeader';
import { FilterHeaderContext } from './filterHeaderContext';

/**
 * A header's filters (§2). On a narrow screen (the stylesheet's phone width) they show as one line saying what is
 * chosen, which opens them under it (`filters.toggle`); on a wider one the line is hidden and the filters always show.
 */
export function FilterLine({ children }: { readonly children: ReactNode }) {
  const headerActor = FilterHeaderContext.useActorRef();
  const expanded = FilterHeaderContext.useSelector((state) => state.hasTag('filtersExpanded'));
  const text = FilterHeaderContext.useSelector((state) => filterLineText(state.context));
  const controlsId = useId();
  return (
    <>
      <Button
        className="filter-line"
        variant="outlined"
        icon="filter"
        endIcon={expanded ? 'chevron-up' : 'chevron-down'}
        alignText="start"
        fill
        aria-expanded={expanded}
        aria-controls={controlsId}
        aria-label={`Filters: ${text}`}
        title={text}
        data-testid="filter-line"
        onClick={() => headerActor.send({ type: 'filters.toggle' })}
      >
        <span className="filter-line-text">{text}</span>
      </Button>
      <div id={controlsId} className="mall-header-controls" data-expanded={expanded}>
        {children}
      </div>
    </>
  );
}
