import { DateRangeExceededAlert } from '../filters/DateRangeExceededAlert';
import { DateRangePicker } from '../filters/DateRangePicker';
import { FilterLine } from '../filters/FilterLine';
import { FilterHeaderContext } from '../filters/filterHeaderContext';
import { MallsSelect } from '../filters/MallsSelect';
import { PageTitle } from '../filters/PageTitle';
import '../filters/filters.css';

/**
 * The controls of a mall page that §2 keeps without the mall header (export, refunds, voucher redemption): its
 * title, the Malls multi-select and the date range, which are the filter header's (committed by their Apply), and
 * the header's 'Date Range Exceeded' alert. Disabled (`aria-busy`) while the page loads.
 */
export function MallsDateRangeHeader({ title, testId }: { readonly title: string; readonly testId: string }) {
  const headerActor = FilterHeaderContext.useActorRef();
  const disabled = FilterHeaderContext.useSelector((state) => state.hasTag('disabled'));
  const dateRangePicker = FilterHeaderContext.useSelector((state) => state.children.dateRangePicker);
  const alertShown = FilterHeaderContext.useSelector((state) => state.matches({ alert: 'shown' }));
  const alert = FilterHeaderContext.useSelector((state) => state.context.alert);
  return (
    <header data-testid={testId} aria-busy={disabled} className="mall-header">
      <PageTitle title={title} />
      <FilterLine>
        <MallsSelect />
        {dateRangePicker ? <DateRangePicker actorRef={dateRangePicker} /> : null}
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
