import { HTMLSelect } from '@blueprintjs/core';
import { isMetric, isTimeRange } from '../../domain/dateLimits';
import { metricOptions, TIME_RANGE_OPTIONS } from '../../domain/filterOptions';
import { FilterHeaderContext } from './filterHeaderContext';
import { HourPicker } from './HourPicker';
import { MallHeader } from './MallHeader';

export interface HeaderV2Props {
  readonly title: string;
}

/**
 * Header V2 (§2, mall peak hours and member vs non-member): the mall header plus the time range select
 * (Hourly, Daily, Weekly, Monthly), the metric select (GMV, Transactions and, when the page offers it,
 * Average Transaction Value) and the hour range picker. A change that makes the date range too long is
 * refused by the machine with the 'Date Range Exceeded' alert.
 */
export function HeaderV2({ title }: HeaderV2Props) {
  const headerActor = FilterHeaderContext.useActorRef();
  const timeRange = FilterHeaderContext.useSelector((state) => state.context.filters.timeRange);
  const metric = FilterHeaderContext.useSelector((state) => state.context.filters.metric);
  const averageTransactionValue = FilterHeaderContext.useSelector(
    (state) => state.context.page.averageTransactionValue,
  );
  const canChangeTimeRange = FilterHeaderContext.useSelector((state) =>
    state.can({ type: 'timeRange.change', timeRange: state.context.filters.timeRange }),
  );
  const canChangeMetric = FilterHeaderContext.useSelector((state) =>
    state.can({ type: 'metric.change', metric: state.context.filters.metric }),
  );
  const hourPicker = FilterHeaderContext.useSelector((state) => state.children.hourPicker);

  return (
    <MallHeader title={title}>
      <HTMLSelect
        aria-label="Time range"
        data-testid="time-range-select"
        value={timeRange}
        options={TIME_RANGE_OPTIONS.map((option) => ({ value: option.value, label: option.label }))}
        disabled={!canChangeTimeRange}
        onChange={(event) => {
          const timeRange = event.currentTarget.value;
          if (isTimeRange(timeRange)) headerActor.send({ type: 'timeRange.change', timeRange });
        }}
      />
      <HTMLSelect
        aria-label="Metric"
        data-testid="metric-select"
        value={metric}
        options={metricOptions(averageTransactionValue)}
        disabled={!canChangeMetric}
        onChange={(event) => {
          const metric = event.currentTarget.value;
          if (isMetric(metric)) headerActor.send({ type: 'metric.change', metric });
        }}
      />
      {hourPicker ? <HourPicker actorRef={hourPicker} /> : null}
    </MallHeader>
  );
}
