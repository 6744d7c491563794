import { Button } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { formatMoney, formatNumber, formatPercentage } from '../../../domain/format';
import {
  type DailyReportRow,
  KPI_CSV_KEYS,
  type Kpi,
  kpiCsvRows,
  kpiGrowthLine,
  kpiValueText,
  type MallGroupRow,
  type PaymentMethodRow,
} from '../../../domain/mallReportViews';
import { alertRuleDialogMachine } from '../../../machines/alertsMachine';
import { AuthContext } from '../../../machines/authContext';
import { mallEventDialogMachine } from '../../../machines/mallEventsMachine';
import { type MallHomePanels, mallHomeReportMachine } from '../../../machines/mallReportMachine';
import { Chart } from '../../charts/Chart';
import { useChartAnnotations } from '../../charts/chartAnnotations';
import { Money, useMallCurrency } from '../../common/Money';
import { useNoticeToasts } from '../../common/Notifications';
import { FilterHeaderContext, useToday } from '../../filters/filterHeaderContext';
import { PageHeader } from '../../filters/PageHeader';
import { ComparisonControls } from '../../reports/ComparisonControls';
import { OutletLink } from '../../reports/OutletLink';
import {
  type Column,
  KpiCard,
  KpiRow,
  MallReportSection,
  ReportBlock,
  ReportTable,
  ReportToolbar,
} from '../../reports/ReportParts';
import { dailyTrendOptions, paymentPieOptions, rankingBarOptions } from '../../reports/reportCharts';
import { useReport } from '../../reports/useReport';
import type { PageProps } from '../pageProps';
import { AlertRuleEditor } from './AlertRuleEditor';
import { MallEventDialog } from './MallEventParts';

const DAILY_COLUMNS: Column<DailyReportRow>[] = [
  { key: 'date', kind: 'date', label: 'Date', render: (row) => row.date },
  { key: 'gmv', kind: 'money', label: 'GMV', render: (row) => <Money value={row.gmv} /> },
  { key: 'transactions', kind: 'count', label: 'Transactions', render: (row) => formatNumber(row.transactions) },
];

export const OUTLET_COLUMNS: Column<MallGroupRow>[] = [
  // Each outlet opens its own page.
  {
    key: 'name',
    kind: 'text',
    label: 'Outlet',
    text: (row) => row.name,
    render: (row) => <OutletLink outletId={row.key} name={row.name} />,
  },
  { key: 'gmv', kind: 'money', label: 'GMV', render: (row) => <Money value={row.gmv} /> },
  { key: 'transactions', kind: 'count', label: 'Transactions', render: (row) => formatNumber(row.transactions) },
];

export const PAYMENT_COLUMNS: Column<PaymentMethodRow>[] = [
  { key: 'payment_method', kind: 'text', label: 'Payment Method', render: (row) => row.payment_method },
  { key: 'sum', kind: 'money', label: 'Sum', render: (row) => <Money value={row.sum} /> },
];

/**
 * Mall Home's 'Add event': the events machine's dialog, opened on the page's first selected mall and its days;
 * after a save the report loads the daily chart's annotations again, so the chart shows the event. The machine says
 * whether the user may add one at all (`mayAdd`); without it the page offers no button.
 */
function useAddEvent(report: ReturnType<typeof useReport<MallHomePanels>>) {
  const events = useActorRef(mallEventDialogMachine);
  useNoticeToasts(events);
  const mayAdd = useSelector(events, (state) => state.context.mayAdd);
  const malls = FilterHeaderContext.useSelector((state) => state.context.malls);
  const { actor, query } = report;
  useEffect(() => {
    const subscription = events.on('event.saved', () => actor?.send({ type: 'report.refresh', panel: 'annotations' }));
    return () => subscription.unsubscribe();
  }, [events, actor]);
  const open = () => {
    if (!query) return;
    const selected = new Set(query.mallIds);
    events.send({
      type: 'form.start',
      query: { clientId: query.clientId, mallIds: [...query.mallIds], start: query.start, end: query.end },
      malls: malls.filter((mall) => selected.has(mall.id)).map(({ id, name }) => ({ id, name })),
    });
  };
  return { events, mayAdd, canOpen: query !== undefined, open };
}

/**
 * Mall Home's 'Alert me when…': the Alerts page's machine as a dialog (`alertRuleDialogMachine`), opened with the
 * page's client, malls, outlet and metric and the signed-in user as recipient; a save toasts with a link to the
 * Alerts page. The machine says whether the user may add a rule (`mayCreate`); without it the page offers no button.
 */
function useAlertMeWhen(report: ReturnType<typeof useReport<MallHomePanels>>) {
  const alerts = useActorRef(alertRuleDialogMachine);
  useNoticeToasts(alerts);
  const mayCreate = useSelector(alerts, (state) => state.context.mayCreate);
  const userId = AuthContext.useSelector((state) => state.context.user?.id);
  const malls = FilterHeaderContext.useSelector((state) => state.context.malls);
  const outlets = FilterHeaderContext.useSelector((state) => state.context.outlets);
  const outlet = FilterHeaderContext.useSelector((state) => state.context.filters.outlet);
  const { query } = report;
  const open = () => {
    if (!query) return;
    alerts.send({
      type: 'editor.new',
      clientId: query.clientId,
      userId,
      prefill: {
        mallIds: [...query.mallIds],
        outletIds: typeof outlet === 'number' ? [outlet] : [],
        metric: query.metric,
      },
      choices: {
        malls: malls.map(({ id, name }) => ({ id, name })),
        outlets: outlets.map(({ id, name, mall_id }) => ({ id, name, mall_id })),
      },
    });
  };
  return { alerts, mayCreate, canOpen: query !== undefined, open };
}

/** Mall home: the KPIs with growth, the daily trend, the outlet ranking and the payment-method split. */
export function MallHomePage({ title, header }: PageProps) {
  const report = useReport(mallHomeReportMachine);
  const addEvent = useAddEvent(report);
  const alertMe = useAlertMeWhen(report);
  const currency = useMallCurrency();
  const dailyData = report.dataOf('daily');
  const shown = dailyData !== undefined;
  const daily = dailyData ?? [];
  const annotations = useChartAnnotations(
    report.dataOf('annotations'),
    daily.map((row) => row.date),
  );
  const outletData = report.dataOf('outlets');
  const outlets = useMemo(() => (outletData ?? []).slice(0, 10), [outletData]);
  const payments = report.dataOf('payments') ?? [];
  const today = useToday();
  const trend = useMemo(() => dailyTrendOptions(daily, shown, currency, { today }), [daily, shown, currency, today]);
  const ranking = useMemo(
    () =>
      rankingBarOptions(
        outlets.map((row) => ({ name: row.name, value: row.gmv })),
        'GMV',
        currency,
      ),
    [outlets, currency],
  );
  const split = useMemo(() => paymentPieOptions(payments, currency), [payments, currency]);
  const kpis = report.dataOf('kpis');
  const kpisLoading = report.panelOf('kpis').status === 'loading';
  const money = (value: number) => formatMoney(value, currency);
  /** A figure of a range without any captured sale says so, rather than $0.00. */
  const figure = (value: number, format: (value: number) => string) => kpiValueText(kpis?.noData, value, format);
  const growthOf = (kpi: Kpi | undefined, format: (value: number) => string) =>
    kpi && kpis ? kpiGrowthLine(kpi, kpis.comparison, format) : undefined;

  return (
    <MallReportSection testId="mall-home-page">
      <PageHeader title={title} header={header} />
      <ReportToolbar
        report={report}
        base="mall_home"
        files={() => [
          { name: 'kpis', keys: KPI_CSV_KEYS, rows: kpiCsvRows(kpis) },
          { name: 'daily', keys: ['date', 'gmv', 'transactions'], rows: daily },
          { name: 'outlets', keys: ['name', 'gmv', 'transactions', 'average_transaction_value'], rows: outlets },
          { name: 'payment_methods', keys: ['payment_method', 'sum'], rows: payments },
        ]}
      >
        {alertMe.mayCreate ? (
          <Button
            icon="notifications"
            data-testid="mall-home-alert-me"
            disabled={!alertMe.canOpen}
            onClick={alertMe.open}
          >
            Alert me when…
          </Button>
        ) : null}
      </ReportToolbar>
      <ComparisonControls value={report.comparison} onChange={report.compare} disabled={report.loading} />
      <KpiRow panel={report.panelOf('kpis')} label="Key figures">
        <KpiCard
          testId="kpi-gmv"
          label="GMV"
          value={figure(kpis?.gmv.current ?? 0, money)}
          growth={growthOf(kpis?.gmv, money)}
          loading={kpisLoading}
        />
        <KpiCard
          testId="kpi-transactions"
          label="Transactions"
          value={figure(kpis?.transactions.current ?? 0, formatNumber)}
          growth={growthOf(kpis?.transactions, formatNumber)}
          loading={kpisLoading}
        />
        <KpiCard
          testId="kpi-atv"
          label="Average Transaction Value"
          value={figure(kpis?.averageTransactionValue.current ?? 0, money)}
          growth={growthOf(kpis?.averageTransactionValue, money)}
          loading={kpisLoading}
        />
        <KpiCard
          testId="kpi-member-share"
          label="Member Share"
          value={figure(kpis?.memberShare.current ?? 0, formatPercentage)}
          growth={growthOf(kpis?.memberShare, formatPercentage)}
          loading={kpisLoading}
        />
      </KpiRow>
      <ReportBlock
        testId="daily-trend"
        title="Daily GMV and Transactions"
        panel={report.panelOf('daily')}
        controls={
          addEvent.mayAdd ? (
            <div className="report-block-controls">
              <Button icon="add" data-testid="mall-home-add-event" disabled={!addEvent.canOpen} onClick={addEvent.open}>
                Add event
              </Button>
            </div>
          ) : null
        }
        chart={<Chart testId="daily-trend-chart" options={trend} annotations={annotations} />}
        table={<ReportTable columns={DAILY_COLUMNS} rows={shown ? daily : []} />}
      />
      <ReportBlock
        testId="outlet-ranking"
        title="Top Outlets by GMV"
        panel={report.panelOf('outlets')}
        chart={<Chart testId="outlet-ranking-chart" options={ranking} />}
        table={<ReportTable columns={OUTLET_COLUMNS} rows={outlets} />}
      />
      <ReportBlock
        testId="payment-split"
        title="Payment Methods"
        panel={report.panelOf('payments')}
        chart={<Chart testId="payment-split-chart" options={split} />}
        table={<ReportTable columns={PAYMENT_COLUMNS} rows={payments} />}
      />
      <MallEventDialog actor={addEvent.events} />
      <AlertRuleEditor actor={alertMe.alerts} />
    </MallReportSection>
  );
}
