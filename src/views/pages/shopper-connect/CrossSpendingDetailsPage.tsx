import { Callout, Classes, Icon, NonIdealState } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type Highcharts from 'highcharts';
import { type ReactNode, useMemo } from 'react';
import { Link, useSearch } from 'wouter';
import {
  CHOOSE_OUTLET_MESSAGE,
  type CrossSpendingPairResult,
  crossSpendingHref,
  formatSharePercent,
  otherOutletOf,
  PAIR_OUTLETS_FAILED_MESSAGE,
  type PairDayRow,
  pairDailyCsv,
  pairDays,
  pairHeadline,
  pairRefusalMessage,
  pairRefusalTitle,
  pairTotals,
} from '../../../domain/crossSpending';
import { type CurrencyFormat, currencyFormat, formatMoney, formatNumber } from '../../../domain/format';
import { crossSpendingDetailsPageMachine } from '../../../machines/crossSpendingDetailsMachine';
import { Chart } from '../../charts/Chart';
import { CurrencyContext, Money } from '../../common/Money';
import { usePageActor } from '../../common/usePageActor';
import { DateRangeHeader } from '../../filters/DateRangeHeader';
import { FilterHeaderContext, useToday } from '../../filters/filterHeaderContext';
import {
  type Column,
  categoryAxis,
  KpiCard,
  KpiRow,
  pointsOrNone,
  ReportBlock,
  ReportTable,
  ReportToolbar,
  valueAxis,
} from '../../reports/ReportParts';
import { dayLabel, moneyTitle, moneyTooltip, PARTIAL_POINT, periodPoints } from '../../reports/reportCharts';
import { useReportActor } from '../../reports/useReport';
import type { PageProps } from '../pageProps';
import './crossSpending.css';

const OPEN_LINE_POINT = { marker: { fillColor: '#ffffff', lineWidth: 2 } };

/**
 * The shared shoppers' spend a day (columns) with their visits and how many of them came (lines); today's day drawn
 * apart and labelled 'so far'.
 */
function pairDailyOptions(rows: readonly PairDayRow[], shown: boolean, currency: CurrencyFormat): Highcharts.Options {
  const marks = rows.map((row) => row.mark);
  const empty = rows.map((row) => row.spend === 0 && row.visits === 0 && row.shoppers === 0);
  const firstOpen = marks.findIndex((mark) => mark.open);
  // The lines into a day still open are dashed.
  const zones =
    firstOpen > 0 ? { zoneAxis: 'x' as const, zones: [{ value: firstOpen - 1 }, { dashStyle: 'Dash' as const }] } : {};
  const line = (name: string, values: readonly number[]): Highcharts.SeriesOptionsType => ({
    type: 'line',
    name,
    yAxis: 1,
    ...zones,
    data: pointsOrNone(shown, periodPoints(values, marks, empty, OPEN_LINE_POINT)),
  });
  return {
    title: { text: undefined },
    xAxis: categoryAxis(marks.map((mark) => mark.label)),
    yAxis: [
      valueAxis(moneyTitle('Spend', currency)),
      valueAxis('Shoppers and Visits', { opposite: true, allowDecimals: false }),
    ],
    series: [
      {
        type: 'column',
        name: 'Spend',
        tooltip: moneyTooltip(currency),
        data: pointsOrNone(
          shown,
          periodPoints(
            rows.map((row) => row.spend),
            marks,
            empty,
            PARTIAL_POINT,
          ),
        ),
      },
      line(
        'Visits',
        rows.map((row) => row.visits),
      ),
      line(
        'Shoppers',
        rows.map((row) => row.shoppers),
      ),
    ],
  };
}

const DAILY_COLUMNS: Column<PairDayRow>[] = [
  { key: 'date', kind: 'date', label: 'Date', render: (row) => row.date },
  { key: 'shoppers', kind: 'count', label: 'Shoppers', render: (row) => formatNumber(row.shoppers) },
  { key: 'visits', kind: 'count', label: 'Visits', render: (row) => formatNumber(row.visits) },
  { key: 'spend', kind: 'money', label: 'Spend', render: (row) => <Money value={row.spend} /> },
  { key: 'note', kind: 'text', label: 'Note', render: (row) => row.note },
];

const NOT_ASKED = { status: 'loading', retry: () => undefined } as const;

/**
 * Cross Spending Details (/shopper-connect/cross-spending/details?other=<id>, opened from an outlet of Cross
 * Spending): the members who bought at the top bar's outlet over the header's days, how many of them also bought
 * at the other outlet, and what they spent there, in how many visits and how many of them came, day by day, in the
 * mall's currency. A pair the user may not ask for, or that the server refuses, is said so in the page.
 */
export function CrossSpendingDetailsPage({ title }: PageProps) {
  const search = useSearch();
  const other = otherOutletOf(search);
  // The header rewrites the address's filters: the page starts again only for another `other`.
  const input = useMemo(() => ({ other: { text: other.text, id: other.id } }), [other.text, other.id]);
  const page = usePageActor(crossSpendingDetailsPageMachine, input);
  const status = useSelector(page, (snapshot) => (snapshot === undefined ? 'waiting' : snapshot.value));
  const lookup = useSelector(page, (snapshot) => snapshot?.context.lookup);
  const reportActor = useSelector(page, (snapshot) => snapshot?.children.report);
  const report = useReportActor(reportActor);
  const panel = report.panelOf('details');
  // The answer also when it is empty ('No Data': none of the shoppers went there), for the figures above the chart.
  const result = useSelector(reportActor, (snapshot): CrossSpendingPairResult | undefined => {
    const shown = snapshot?.context.panels.details;
    return shown?.status === 'loaded' || shown?.status === 'empty' ? shown.data : undefined;
  });
  const details = result?.kind === 'pair' ? result.details : undefined;
  const filters = FilterHeaderContext.useSelector((state) => state.context.filters);
  const today = useToday();

  const pair = lookup?.kind === 'found' || lookup?.kind === 'refused' ? lookup : undefined;
  const outletName = details?.outlet.outlet_name ?? pair?.outlet?.name;
  const otherName = details?.other_outlet.outlet_name ?? pair?.other?.name;
  const mallName = details?.outlet.mall_name;
  const currencyCode = details?.outlet.currency ?? pair?.outlet?.currency;
  const currency = useMemo(() => currencyFormat(currencyCode), [currencyCode]);
  const days = useMemo(() => pairDays(details?.daily ?? [], today, dayLabel), [details, today]);
  const daysShown = panel.status === 'loaded';
  const loadedDays = useMemo(() => (daysShown ? days : []), [daysShown, days]);
  const chart = useMemo(() => pairDailyOptions(loadedDays, daysShown, currency), [loadedDays, daysShown, currency]);
  const totals = useMemo(() => pairTotals(details?.daily ?? []), [details]);
  const start = report.query?.start;
  const end = report.query?.end;
  const waiting = status === 'waiting';
  const figuresLoading = waiting || panel.status === 'loading';
  const kpiPanel = waiting ? NOT_ASKED : panel;
  const refusedByServer = result?.kind === 'refused';
  const names = {
    otherText: other.text,
    ...(outletName ? { outlet: outletName } : {}),
    ...(otherName ? { other: otherName } : {}),
  };

  const back = (
    <Link href={crossSpendingHref(filters)} className={Classes.BUTTON} data-testid="cross-spending-back">
      <Icon icon="arrow-left" />
      <span className={Classes.BUTTON_TEXT}>Back to Cross Spending</span>
    </Link>
  );

  let body: ReactNode;
  if (status === 'failed' || status === 'refused') {
    body = (
      <div data-testid="cross-spending-details-unavailable">
        <NonIdealState
          icon="disable"
          title={pairRefusalTitle(status === 'refused' && lookup?.kind === 'refused' ? lookup.reason : undefined)}
          description={
            status === 'failed' || lookup?.kind !== 'refused'
              ? PAIR_OUTLETS_FAILED_MESSAGE
              : pairRefusalMessage(lookup.reason, names)
          }
        />
      </div>
    );
  } else if (status === 'choose') {
    body = (
      <Callout intent="primary" data-testid="cross-spending-choose">
        {CHOOSE_OUTLET_MESSAGE}
      </Callout>
    );
  } else if (refusedByServer) {
    body = (
      <div data-testid="cross-spending-details-unavailable">
        <NonIdealState
          icon="disable"
          title={pairRefusalTitle('server')}
          description={pairRefusalMessage('server', names)}
        />
      </div>
    );
  } else {
    body = (
      <>
        {panel.status === 'failed' ? null : (
          <KpiRow panel={kpiPanel} label="The pair's figures">
            <KpiCard
              testId="kpi-shoppers"
              label={outletName ? `Members who bought at ${outletName}` : 'Members who bought at the outlet'}
              value={formatNumber(details?.shoppers ?? 0)}
              growth={undefined}
              loading={figuresLoading}
            />
            <KpiCard
              testId="kpi-shared"
              label={otherName ? `Of them, also at ${otherName}` : 'Of them, also at the other outlet'}
              value={formatNumber(details?.shared_shoppers ?? 0)}
              growth={
                details && details.shoppers > 0
                  ? {
                      text: `${formatSharePercent(
                        Math.round((details.shared_shoppers / details.shoppers) * 1000) / 10,
                      )} of the members`,
                      trend: 'none',
                    }
                  : undefined
              }
              loading={figuresLoading}
            />
            <KpiCard
              testId="kpi-spend"
              label={otherName ? `Their spend at ${otherName}` : 'Their spend at the other outlet'}
              value={formatMoney(totals.spend, currency)}
              growth={{
                text: `in ${formatNumber(totals.visits)} ${totals.visits === 1 ? 'visit' : 'visits'}`,
                trend: 'none',
              }}
              loading={figuresLoading}
            />
          </KpiRow>
        )}
        {details && start && end ? (
          <p className="cross-spending-pair-headline" data-testid="cross-spending-pair-headline">
            {pairHeadline(details, { start, end })}
          </p>
        ) : null}
        <ReportBlock
          testId="cross-spending-daily"
          title={otherName ? `Shared shoppers at ${otherName} by day` : 'Shared shoppers at the other outlet by day'}
          panel={kpiPanel}
          tablePlacement="below"
          chart={<Chart testId="cross-spending-daily-chart" options={chart} />}
          table={
            <ReportTable
              testId="cross-spending-daily-table"
              columns={DAILY_COLUMNS}
              rows={loadedDays}
              rowKey={(row) => row.date}
            />
          }
        />
      </>
    );
  }

  const exportable = status === 'shown' && result?.kind === 'pair';
  return (
    <CurrencyContext.Provider value={currency}>
      <section className="cross-spending-page" data-testid="cross-spending-details-page">
        <DateRangeHeader title={title} />
        <div className="cross-spending-details-heading">
          {back}
          <p className="cross-spending-pair" data-testid="cross-spending-pair">
            {outletName && otherName ? (
              <>
                <strong>{outletName}</strong> and <strong>{otherName}</strong>
                {mallName ? <span> · {mallName}</span> : null}
              </>
            ) : waiting ? (
              <span className={Classes.SKELETON}>Outlets</span>
            ) : null}
          </p>
          <ReportToolbar
            report={{
              ...report,
              loading: report.loading && status === 'shown',
              canExport: report.canExport && exportable,
            }}
            base="cross_spending_details"
            files={() =>
              details
                ? [
                    pairDailyCsv(
                      { outletId: details.outlet.outlet_id, otherOutletId: details.other_outlet.outlet_id },
                      loadedDays,
                    ),
                  ]
                : []
            }
          />
        </div>
        {body}
      </section>
    </CurrencyContext.Provider>
  );
}
