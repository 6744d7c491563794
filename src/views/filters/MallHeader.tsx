import type { ReactNode } from 'react';
import { DateRangeExceededAlert } from './DateRangeExceededAlert';
import { DateRangePicker } from './DateRangePicker';
import { FilterLine } from './FilterLine';
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
  const headerActor = FilterHeaderContext.useActorRef();
  const period = FilterHeaderContext.useSelector((state) => state.context.page.period);
  const dateRangePicker = FilterHeaderContext.useSelector((state) => state.children.dateRangePicker);
  const disabled = FilterHeaderContext.useSelector((state) => state.hasTag('disabled'));
  const alertShown = FilterHeaderContext.useSelector((state) => state.matches({ alert: 'shown' }));
  const alert = FilterHeaderContext.useSelector((state) => state.context.alert);

  return (
    <header data-testid="mall-header" aria-busy={disabled} className="mall-header">
      <PageTitle title={title} />
      <FilterLine>
        <MallsSelect />
        {period === 'range' && dateRangePicker ? <DateRangePicker actorRef={dateRangePicker} /> : null}
        {period === 'month' ? <MonthPicker /> : null}
        {children}
      </FilterLine>
      <DateRangeExceededAlert
        isOpen={alertShown}
        title={alert?.title}
        message={alert?.message ?? ''}
        onClose={() => headerActor.send({ type: 'alert.dismiss' })}
      />
    </header>
  );
}
