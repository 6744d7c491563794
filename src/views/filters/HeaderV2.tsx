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
  const state = FilterHeaderContext.useSelector((snapshot) => snapshot);
  const headerActor = FilterHeaderContext.useActorRef();
  const { filters, page } = state.context;
  const hourPicker = state.children.hourPicker;

  return (
    <MallHeader title={title}>
      <HTMLSelect
        aria-label="Time range"
        data-testid="time-range-select"
        value={filters.timeRange}
        options={TIME_RANGE_OPTIONS.map((option) => ({ value: option.value, label: option.label }))}
        disabled={!state.can({ type: 'timeRange.change', timeRange: filters.timeRange })}
        onChange={(event) => {
          const timeRange = event.currentTarget.value;
          if (isTimeRange(timeRange)) headerActor.send({ type: 'timeRange.change', timeRange });
        }}
      />
      <HTMLSelect
        aria-label="Metric"
        data-testid="metric-select"
        value={filters.metric}
        options={metricOptions(page.averageTransactionValue)}
        disabled={!state.can({ type: 'metric.change', metric: filters.metric })}
        onChange={(event) => {
          const metric = event.currentTarget.value;
          if (isMetric(metric)) headerActor.send({ type: 'metric.change', metric });
        }}
      />
      {hourPicker ? <HourPicker actorRef={hourPicker} /> : null}
    </MallHeader>
  );
}
