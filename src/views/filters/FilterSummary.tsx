import type { Client } from '../../api/lookup';
import { ALL_OUTLETS_LABEL, metricLabel, OUTLET_PLACEHOLDER, timeRangeLabel } from '../../domain/filterOptions';
import { formatHourRange, formatMonth, formatOutletLabel } from '../../domain/format';
import { FilterHeaderContext } from './filterHeaderContext';

export interface FilterSummaryProps {
  /** The clients known by name (the layout's); a client not among them shows by id. */
  readonly clients?: readonly Client[];
}

const NONE = '—';

/**
 * The committed filters in a few readable lines (client, malls, outlet, dates or month, and on Header V2
 * pages hours, time range and metric), for pages not built yet: the user sees the filters take effect.
 */
export function FilterSummary({ clients = [] }: FilterSummaryProps) {
  const filters = FilterHeaderContext.useSelector((state) => state.context.filters);
  const period = FilterHeaderContext.useSelector((state) => state.context.page.period);
  const headerV2 = FilterHeaderContext.useSelector((state) => state.context.page.headerV2);
  const malls = FilterHeaderContext.useSelector((state) => state.context.malls);
  const mallsLoading = FilterHeaderContext.useSelector((state) => state.hasTag('mallsLoading'));
  const outlets = FilterHeaderContext.useSelector((state) => state.context.outlets);

  const client =
    filters.clientId === undefined
      ? NONE
      : (clients.find((known) => known.id === filters.clientId)?.name ?? `#${filters.clientId}`);
  const mallNames = malls.filter((mall) => filters.mallIds.includes(mall.id)).map((mall) => mall.name);
  const mallText = mallsLoading ? 'Loading…' : mallNames.length > 0 ? mallNames.join(', ') : NONE;
  const outlet = filters.outlet;
  const outletText =
    outlet === undefined
      ? OUTLET_PLACEHOLDER
      : outlet === 'all'
        ? ALL_OUTLETS_LABEL
        : (() => {
            const known = outlets.find((candidate) => candidate.id === outlet);
            return known ? formatOutletLabel(known) : `#${outlet}`;
          })();

  const rows: { key: string; label: string; value: string }[] = [
    { key: 'client', label: 'Client', value: client },
    { key: 'malls', label: 'Malls', value: mallText },
    { key: 'outlet', label: 'Outlet', value: outletText },
  ];
  if (period === 'range') {
    rows.push({ key: 'dates', label: 'Dates', value: `${filters.dateRange.start} to ${filters.dateRange.end}` });
  }
  if (period === 'month') {
    rows.push({ key: 'month', label: 'Month', value: filters.month === undefined ? NONE : formatMonth(filters.month) });
  }
  if (headerV2) {
    rows.push(
      { key: 'hours', label: 'Hours', value: formatHourRange(filters.hours) },
      { key: 'time-range', label: 'Time range', value: timeRangeLabel(filters.timeRange) },
      { key: 'metric', label: 'Metric', value: metricLabel(filters.metric) },
    );
  }

  return (
    <dl className="app-filter-summary" data-testid="filter-summary" aria-label="Filters">
      {rows.map((row) => (
        <div key={row.key} className="app-filter-summary-row">
          <dt>{row.label}</dt>
          <dd data-testid={`filter-summary-${row.key}`}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
