import { Classes, NonIdealState } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useParams } from 'wouter';
import { currencyFormat, formatMoney, formatNumber, formatPercentage } from '../../../domain/format';
import {
  mallOutletKpiCsvRows,
  OUTLET_PREVIOUS_LABEL,
  OUTLETS_FAILED_MESSAGE,
  outletIdOf,
  PEERS_CSV_KEYS,
  type PeerRow,
  peersCsvRows,
  rankNote,
  UNKNOWN_OUTLET_TITLE,
  unknownOutletMessage,
} from '../../../domain/mallOutlet';
import {
  type DailyReportRow,
  KPI_CSV_KEYS,
  type Kpi,
  kpiGrowthLine,
  kpiValueText,
} from '../../../domain/mallReportViews';
import { mallOutletPageMachine } from '../../../machines/mallOutletMachine';
import { Chart } from '../../charts/Chart';
import { useChartAnnotations } from '../../charts/chartAnnotations';
import { CurrencyContext, Money } from '../../common/Money';
import { usePageActor } from '../../common/usePageActor';
import { DateRangeHeader } from '../../filters/DateRangeHeader';
import { useToday } from '../../filters/filterHeaderContext';
import { ComparisonControls } from '../../reports/ComparisonControls';
import { OutletLink } from '../../reports/OutletLink';
import { type Column, KpiCard, KpiRow, ReportBlock, ReportTable, ReportToolbar } from '../../reports/ReportParts';
import { dailyTrendOptions, rankingBarOptions } from '../../reports/reportCharts';
import { useReportActor } from '../../reports/useReport';
import type { PageProps } from '../pageProps';
import './mallOutlet.css';

const DAILY_COLUMNS: Column<DailyReportRow>[] = [
  { key: 'date', kind: 'date', label: 'Date', render: (row) => row.date },
  { key: 'gmv', kind: 'money', label: 'GMV', render: (row) => <Money value={row.gmv} /> },
  { key: 'transactions', kind: 'count', label: 'Transactions', render: (row) => formatNumber(row.transactions) },
];

const PEER_COLUMNS: Column<PeerRow>[] = [
  { key: 'rank', kind: 'count', label: 'Rank', render: (row) => formatNumber(row.rank) },
  {
    key: 'outlet_name',
    kind: 'text',
    label: 'Outlet',
    text: (row) => (row.current ? `${row.outlet_name} (this outlet)` : row.outlet_name),
    // The page's own outlet is named, not linked; the others open their own page.
    render: (row) =>
      row.current ? (
        <strong data-testid="peer-current">
          {row.outlet_name} <span className="mall-outlet-this">(this outlet)</span>
        </strong>
      ) : (
        <OutletLink outletId={row.outlet_id} name={row.outlet_name} />
      ),
  },
  { key: 'level', kind: 'text', label: 'Level', render: (row) => row.level },
  { key: 'gmv', kind: 'money', label: 'GMV', render: (row) => <Money value={row.gmv} /> },
  { key: 'transactions', kind: 'count', label: 'Transactions', render: (row) => formatNumber(row.transactions) },
  {
    key: 'average_transaction_value',
    kind: 'money',
    label: 'Avg. Transaction Value',
    render: (row) => <Money value={row.average_transaction_value} />,
  },
];

/**
 * One outlet of a mall (/shopper-connect/mall-outlet/:id, opened from the outlet rows of the mall pages): its KPIs
 * with their growth against the previous period of equal length in whole weeks, its daily figures, and its place
 * among the outlets of its category in its mall and on its level, over the page's date range.
 */
export function MallOutletPage({ title }: PageProps) {
  const { id = '' } = useParams<{ id?: string }>();
  const input = useMemo(() => ({ outletId: outletIdOf(id) }), [id]);
  const page = usePageActor(mallOutletPageMachine, input);
  const status = useSelector(page, (snapshot) => (snapshot === undefined ? 'waiting' : snapshot.value));
  const outlet = useSelector(page, (snapshot) => snapshot?.context.outlet);
  const mall = useSelector(page, (snapshot) => snapshot?.context.mall);
  const reportActor = useSelector(page, (snapshot) => snapshot?.children.report);
  const report = useReportActor(reportActor);
  const currencyCode = mall?.currency ?? outlet?.currency;
  const currency = useMemo(() => currencyFormat(currencyCode), [currencyCode]);
  const today = useToday();

  const kpis = report.dataOf('kpis');
  const kpisPanel = report.panelOf('kpis');
  const dailyData = report.dataOf('daily');
  const daily = dailyData ?? [];
  const annotations = useChartAnnotations(
    report.dataOf('annotations'),
    daily.map((row) => row.date),
  );
  const placement = report.dataOf('placement');
  const placementPanel = report.panelOf('placement');
  const trend = useMemo(
    () => dailyTrendOptions(dailyData ?? [], dailyData !== undefined, currency, { today }),
    [dailyData, currency, today],
  );
  const peers = placement?.peers ?? [];
  const ranking = useMemo(
    () =>
      rankingBarOptions(
        (placement?.peers ?? []).map((row) => ({ name: row.outlet_name, value: row.gmv })),
        'GMV',
        currency,
      ),
    [placement, currency],
  );
  const money = (value: number) => formatMoney(value, currency);
  const growthOf = (kpi: Kpi | undefined, format: (value: number) => string) =>
    kpi && kpis ? kpiGrowthLine(kpi, kpis.comparison, format) : undefined;
  const waiting = status === 'waiting';

  return (
    <CurrencyContext.Provider value={currency}>
      <section data-testid="mall-outlet-page">
        <DateRangeHeader title={title} />
        {status === 'unknown' || status === 'failed' ? (
          <div data-testid="mall-outlet-unknown">
            <NonIdealState
              icon="disable"
              title={UNKNOWN_OUTLET_TITLE}
              description={status === 'failed' ? OUTLETS_FAILED_MESSAGE : unknownOutletMessage(id)}
            />
          </div>
        ) : (
          <>
            <div className="mall-outlet-heading">
              <p className="mall-outlet-name" data-testid="mall-outlet-name">
                {outlet ? (
                  <>
                    <strong>{outlet.name}</strong>
                    {mall ? <span> · {mall.name}</span> : null}
                  </>
                ) : (
                  <span className={Classes.SKELETON}>Outlet</span>
                )}
              </p>
              <ReportToolbar
                report={{ ...report, loading: report.loading || waiting, canExport: report.canExport && !waiting }}
                base={`mall_outlet_${id}`}
                files={() => [
                  { name: 'kpis', keys: KPI_CSV_KEYS, rows: mallOutletKpiCsvRows(kpis) },
                  { name: 'daily', keys: ['date', 'gmv', 'transactions'], rows: daily },
                  { name: 'peers', keys: PEERS_CSV_KEYS, rows: peersCsvRows(placement) },
                ]}
              />
            </div>
            <ComparisonControls
              value={report.comparison}
              onChange={report.compare}
              disabled={report.loading}
              previousLabel={OUTLET_PREVIOUS_LABEL}
              likeForLike={false}
            />
            <KpiRow panel={kpisPanel} label="Key figures">
              <KpiCard
                testId="kpi-gmv"
                label="GMV"
                value={kpiValueText(kpis?.noData, kpis?.gmv.current ?? 0, money)}
                growth={growthOf(kpis?.gmv, money)}
                loading={waiting || kpisPanel.status === 'loading'}
              />
              <KpiCard
                testId="kpi-transactions"
                label="Transactions"
                value={kpiValueText(kpis?.noData, kpis?.transactions.current ?? 0, formatNumber)}
                growth={growthOf(kpis?.transactions, formatNumber)}
                loading={waiting || kpisPanel.status === 'loading'}
              />
              <KpiCard
                testId="kpi-atv"
                label="Average Transaction Value"
                value={kpiValueText(kpis?.noData, kpis?.averageTransactionValue.current ?? 0, money)}
                growth={growthOf(kpis?.averageTransactionValue, money)}
                loading={waiting || kpisPanel.status === 'loading'}
              />
            </KpiRow>
            <KpiRow panel={placementPanel} label="Place among its peers">
              <KpiCard
                testId="kpi-rank"
                label={placement ? `Rank in ${placement.category}` : 'Rank in its category'}
                value={placement ? `${placement.rank} of ${placement.categoryOutlets}` : '—'}
                growth={placement ? { text: rankNote(placement), trend: 'none' } : undefined}
                loading={waiting || placementPanel.status === 'loading'}
              />
              <KpiCard
                testId="kpi-level"
                label="Level"
                value={placement?.level.name ?? '—'}
                growth={
                  placement
                    ? {
                        text: `${formatPercentage(placement.level.share)} of the level’s GMV of ${formatMoney(
                          placement.level.gmv,
                          currency,
                        )}`,
                        trend: 'none',
                      }
                    : undefined
                }
                loading={waiting || placementPanel.status === 'loading'}
              />
            </KpiRow>
            <ReportBlock
              testId="outlet-daily"
              title="Daily GMV and Transactions"
              panel={waiting ? { status: 'loading', retry: () => undefined } : report.panelOf('daily')}
              chart={<Chart testId="outlet-daily-chart" options={trend} annotations={annotations} />}
              table={<ReportTable columns={DAILY_COLUMNS} rows={daily} rowKey={(row) => row.date} />}
            />
            <ReportBlock
              testId="outlet-peers"
              title={placement ? `Outlets in ${placement.category} by GMV` : 'Outlets in its category by GMV'}
              panel={waiting ? { status: 'loading', retry: () => undefined } : placementPanel}
              tablePlacement="below"
              chart={<Chart testId="outlet-peers-chart" options={ranking} />}
              table={
                <ReportTable
                  testId="outlet-peers-table"
                  columns={PEER_COLUMNS}
                  rows={peers}
                  rowKey={(row) => String(row.outlet_id)}
                />
              }
            />
          </>
        )}
      </section>
    </CurrencyContext.Provider>
  );
}
