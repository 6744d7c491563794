import type { ReactNode } from 'react';
import { DateRangeExceededAlert } from './DateRangeExceededAlert';
import { DateRangePicker } from './DateRangePicker';
import { FilterHeaderContext } from './filterHeaderContext';
import { MallsSelect } from './MallsSelect';
import { MonthPicker } from './MonthPicker';
import { PageTitle } from './PageTitle';

export interface MallHeaderProps {
  /** The page title. */
  readonly title: string;
  /** More filters after the date (Header V2 puts its selects here). */
  readonly children?: ReactNode;
}

/**
 * The mall header (§2): the page title, the Malls multi-select and the Date Period picker (the Month
 * picker on monthly pages, by the page's `period`), and the header's 'Date Range Exceeded' alert. It
 * needs a `FilterHeaderContext.Provider` above it.
 */
export function MallHeader({ title, children }: MallHeaderProps) {
  const state = FilterHeaderContext.useSelector((snapshot) => snapshot);
  const headerActor = FilterHeaderContext.useActorRef();
  const { period } = state.context.page;
  const dateRangePicker = state.children.dateRangePicker;

  return (
    <header data-testid="mall-header" aria-busy={state.hasTag('disabled')} className="mall-header">
      <PageTitle title={title} />
      <div className="mall-header-controls">
        <MallsSelect />
        {period === 'range' && dateRangePicker ? <DateRangePicker actorRef={dateRangePicker} /> : null}
        {period === 'month' ? <MonthPicker /> : null}
        {children}
      </div>
      <DateRangeExceededAlert
        isOpen={state.matches({ alert: 'shown' })}
        title={state.context.alert?.title}
        message={state.context.alert?.message ?? ''}
        onClose={() => headerActor.send({ type: 'alert.dismiss' })}
      />
    </header>
  );
}
