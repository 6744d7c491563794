import { DateRangeExceededAlert } from './DateRangeExceededAlert';
import { DateRangePicker } from './DateRangePicker';
import { FilterHeaderContext } from './filterHeaderContext';
import { PageTitle } from './PageTitle';
import './filters.css';

/**
 * The header of a page whose filters are the top bar's and a date range (receipts, audit logs): the page's title,
 * the filter header's date range picker, and its 'Date Range Exceeded' alert.
 */
export function DateRangeHeader({ title }: { readonly title: string }) {
  const headerActor = FilterHeaderContext.useActorRef();
  const dateRangePicker = FilterHeaderContext.useSelector((state) => state.children.dateRangePicker);
  const alertShown = FilterHeaderContext.useSelector((state) => state.matches({ alert: 'shown' }));
  const alert = FilterHeaderContext.useSelector((state) => state.context.alert);
  return (
    <>
      <header className="date-range-header">
        <PageTitle title={title} />
        <div className="date-range-header-filters">
          {dateRangePicker ? <DateRangePicker actorRef={dateRangePicker} /> : null}
        </div>
      </header>
      <DateRangeExceededAlert
        isOpen={alertShown}
        title={alert?.title}
        message={alert?.message ?? ''}
        onClose={() => headerActor.send({ type: 'alert.dismiss' })}
      />
    </>
  );
}
