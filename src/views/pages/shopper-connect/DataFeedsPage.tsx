import { Button, Card, HTMLSelect, type Intent, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { DataFeedRow } from '../../../api/dataFeeds';
import {
  FEED_FILTERS,
  FEED_STATE_LABELS,
  type FeedFilter,
  type FeedSortColumn,
  type FeedState,
  filterFeeds,
  sortFeeds,
} from '../../../domain/dataFeeds';
import { formatDateTime, formatNumber } from '../../../domain/format';
import { dataFeedsMachine } from '../../../machines/dataFeedsMachine';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { useNoticeToasts } from '../../common/Notifications';
import { usePageActor } from '../../common/usePageActor';
import { PageHeader } from '../../filters/PageHeader';
import type { PageProps } from '../pageProps';
import { FeedRulesDialog } from './FeedRulesDialog';
import './dataFeeds.css';

const STATE_INTENT: Readonly<Record<FeedState, Intent>> = {
  silent: 'danger',
  trading: 'success',
  idle: 'none',
  not_trading: 'warning',
};

const isFeedFilter = (value: string): value is FeedFilter => FEED_FILTERS.some((option) => option.value === value);

/** An instant in the outlet's mall's time zone; '-' without one. */
const instant = (iso: string | null, row: DataFeedRow) => (iso === null ? '-' : formatDateTime(iso, row.time_zone));

const COLUMNS: readonly DataColumn<DataFeedRow, FeedSortColumn>[] = [
  { key: 'outlet', header: 'Outlet', kind: 'text', sort: 'outlet_name', render: (row) => row.outlet_name },
  { key: 'mall', header: 'Mall', kind: 'text', sort: 'mall_name', render: (row) => row.mall_name },
  {
    key: 'state',
    header: 'State',
    kind: 'status',
    sort: 'state',
    render: (row) => (
      <Tag minimal intent={STATE_INTENT[row.state]} data-testid="data-feed-state">
        {FEED_STATE_LABELS[row.state]}
      </Tag>
    ),
  },
  {
    key: 'last-receipt',
    header: 'Last receipt',
    kind: 'datetime',
    sort: 'last_receipt_at',
    render: (row) => instant(row.last_receipt_at, row),
  },
  {
    key: 'device',
    header: 'Device last seen',
    kind: 'datetime',
    sort: 'device_last_call_at',
    render: (row) => instant(row.device_last_call_at, row),
  },
  {
    key: 'today',
    header: 'Receipts today',
    kind: 'count',
    sort: 'receipts_today',
    render: (row) => formatNumber(row.receipts_today),
  },
  {
    key: 'usual',
    header: 'Usual by now',
    kind: 'count',
    render: (row) => formatNumber(row.usual_receipts_by_now),
  },
  {
    key: 'silent-since',
    header: 'Silent since',
    kind: 'datetime',
    sort: 'silent_since',
    render: (row) => instant(row.silent_since, row),
  },
];

/**
 * Data Feeds (issue 34): for the mall header's malls, each outlet's last receipt, its device's last call, today's
 * receipts against the usual count by now and its open silence, shown by state and sortable. Times are in each
 * outlet's mall's time zone.
 */
export function DataFeedsPage({ title, header }: PageProps) {
  const actor = usePageActor(dataFeedsMachine);
  useNoticeToasts(actor);
  const status = useSelector(actor, (state) => {
    if (!state || state.hasTag('loading')) return 'loading';
    if (state.matches('failure')) return 'failed';
    if (state.matches('empty')) return 'empty';
    return state.matches('idle') ? 'idle' : 'loaded';
  });
  const answer = useSelector(actor, (state) => state?.context.answer);
  const filter = useSelector(actor, (state) => state?.context.filter ?? 'all');
  const sort = useSelector(actor, (state) => state?.context.sort);
  const rows = useMemo(
    () => (answer && sort ? sortFeeds(filterFeeds(answer.rows, filter), sort.column, sort.order) : undefined),
    [answer, filter, sort],
  );
  const silentCount = answer?.rows.filter((row) => row.state === 'silent').length ?? 0;
  const mayEditRules = useSelector(actor, (state) => state?.context.mayEditRules === true);
  const canOpenRules = useSelector(actor, (state) => state?.can({ type: 'rules.open' }) === true);
  const rules = useSelector(actor, (state) => state?.children.rules);

  return (
    <section className="data-feeds-page" data-testid="data-feeds-page">
      <PageHeader title={title} header={header} />
      <Card className="data-feeds-card">
        <div className="data-feeds-toolbar">
          <HTMLSelect
            aria-label="State"
            value={filter}
            options={FEED_FILTERS.map((option) => ({ value: option.value, label: option.label }))}
            onChange={(event) => {
              const value = event.currentTarget.value;
              if (isFeedFilter(value)) actor?.send({ type: 'feeds.filter', filter: value });
            }}
            data-testid="data-feeds-filter"
          />
          {status === 'loaded' && answer ? (
            <span className="data-feeds-note" data-testid="data-feeds-note">
              {silentCount === 1 ? '1 outlet silent' : `${formatNumber(silentCount)} outlets silent`}; an outlet is
              silent after {formatNumber(answer.silence_minutes)} minutes without a receipt in an hour it usually
              trades.
            </span>
          ) : null}
          <Button
            className="data-feeds-refresh"
            icon="refresh"
            text="Refresh"
            disabled={status !== 'loaded' && status !== 'empty'}
            onClick={() => actor?.send({ type: 'feeds.refresh' })}
            data-testid="data-feeds-refresh"
          />
          {mayEditRules ? (
            <Button
              icon="cog"
              text="Rules"
              disabled={!canOpenRules}
              onClick={() => actor?.send({ type: 'rules.open' })}
              data-testid="feed-rules-open"
            />
          ) : null}
        </div>
        {status === 'idle' ? null : (
          <DataTable
            label="Data feeds"
            columns={COLUMNS}
            rows={status === 'loading' ? undefined : status === 'empty' ? [] : rows}
            rowKey={(row) => row.outlet_id}
            rowAttributes={(row) => ({
              'data-testid': 'data-feed-row',
              'data-outlet-id': row.outlet_id,
              'data-state': row.state,
            })}
            sortColumn={sort?.column}
            order={sort?.order}
            onSort={(column) => actor?.send({ type: 'feeds.sort', column })}
            testIdPrefix="data-feeds"
            skeleton={{ label: 'Loading data feed', testId: 'data-feeds-skeleton-row' }}
            empty={
              status === 'empty'
                ? { testId: 'data-feeds-empty' }
                : { inline: true, title: 'No outlet in this state.', testId: 'data-feeds-none' }
            }
            {...(status === 'failed'
              ? {
                  failed: {
                    message: 'The data feeds could not be read.',
                    onRetry: () => actor?.send({ type: 'feeds.retry' }),
                    retryTestId: 'data-feeds-retry',
                  },
                }
              : {})}
          />
        )}
      </Card>
      {rules ? <FeedRulesDialog actor={rules} onClose={() => actor?.send({ type: 'rules.close' })} /> : null}
    </section>
  );
}
