import { Button, Callout, Card, Spinner } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type Highcharts from 'highcharts';
import { useMemo } from 'react';
import { Link } from 'wouter';
import {
  CHOOSE_OUTLET_MESSAGE,
  type CrossSpendingAnswer,
  type CrossSpendingCategoryRow,
  type CrossSpendingOutletRow,
  categoriesBySharedShoppers,
  categoryLabel,
  crossSpendingCategoriesCsv,
  crossSpendingDetailsHref,
  crossSpendingHeadline,
  crossSpendingOutletsCsv,
  formatSharePercent,
  TOP_OUTLETS_CHARTED,
  topOutletsBySharedShoppers,
} from '../../../domain/crossSpending';
import type { CsvFile } from '../../../domain/csv';
import { currencyFormat, formatNumber } from '../../../domain/format';
import { crossSpendingMachine } from '../../../machines/crossSpendingMachine';
import { Chart } from '../../charts/Chart';
import { CurrencyContext, Money, useCurrency, useOutletCurrency } from '../../common/Money';
import { DateRangeHeader } from '../../filters/DateRangeHeader';
import { FilterHeaderContext } from '../../filters/filterHeaderContext';
import { type Column, PanelContent, ReportBlock, ReportTable, SubscribeToolbar } from '../../reports/ReportParts';
import { rankingBarOptions } from '../../reports/reportCharts';
import { type ReportExport, useReport } from '../../reports/useReport';
import type { PageProps } from '../pageProps';
import './crossSpending.css';

/** An outlet's name as a link to the details of the pair, keeping the header's filters (its outlet and days). */
function PairLink({ row }: { readonly row: CrossSpendingOutletRow }) {
  const filters = FilterHeaderContext.useSelector((state) => state.context.filters);
  return (
    <Link href={crossSpendingDetailsHref(row.outlet_id, filters)} data-testid={`cross-spending-link-${row.outlet_id}`}>
      {row.outlet_name}
    </Link>
  );
}

const SHARE_COLUMNS = [
  {
    key: 'shared_shoppers',
    kind: 'count',
    label: 'Shared Shoppers',
    render: (row: { shared_shoppers: number }) => formatNumber(row.shared_shoppers),
  },
  {
    key: 'share_percent',
    kind: 'percent',
    label: 'Share of Shoppers',
    render: (row: { share_percent: number }) => formatSharePercent(row.share_percent),
  },
  { key: 'spend', kind: 'money', label: 'Spend', render: (row: { spend: number }) => <Money value={row.spend} /> },
  { key: 'visits', kind: 'count', label: 'Visits', render: (row: { visits: number }) => formatNumber(row.visits) },
] as const;

const OUTLET_COLUMNS: Column<CrossSpendingOutletRow>[] = [
  {
    key: 'outlet_name',
    kind: 'text',
    label: 'Outlet',
    text: (row) => row.outlet_name,
    render: (row) => <PairLink row={row} />,
  },
  {
    key: 'category',
    kind: 'text',
    label: 'Category',
    value: (row) => categoryLabel(row.category),
    render: (row) => categoryLabel(row.category),
  },
  ...SHARE_COLUMNS,
];

const CATEGORY_COLUMNS: Column<CrossSpendingCategoryRow>[] = [
  {
    key: 'category',
    kind: 'text',
    label: 'Category',
    value: (row) => categoryLabel(row.category),
    render: (row) => categoryLabel(row.category),
  },
  ...SHARE_COLUMNS,
];

/** Bars of shared shoppers (whole numbers), the most first. */
function sharedShopperBars(rows: readonly { name: string; value: number }[]): Highcharts.Options {
  const options = rankingBarOptions(rows, 'Shared Shoppers');
  return { ...options, yAxis: { ...(options.yAxis as Highcharts.YAxisOptions), allowDecimals: false } };
}

/** A bar chart as tall as its bars need (a few bars are not drawn a third of the page high). */
function barsHeight(bars: number): number {
  return Math.min(480, 100 + Math.max(3, bars) * 36);
}

/** A table's CSV export: one file, in the page's currency (a last Currency column), as the machine makes it. */
function TableExport({
  report,
  what,
  file,
  testId,
}: {
  readonly report: ReportExport;
  /** What the button exports ('outlets'): its label says so. */
  readonly what: string;
  readonly file: () => CsvFile;
  readonly testId: string;
}) {
  const currency = useCurrency().code;
  return (
    <div className="cross-spending-export">
      <Button
        icon="download"
        data-testid={testId}
        loading={report.exporting}
        disabled={!report.canExport}
        onClick={() => {
          const made = file();
          report.exportFiles(made.name, [currency === undefined ? made : { ...made, currency }]);
        }}
      >
        {`Export ${what} CSV`}
      </Button>
    </div>
  );
}

/**
 * Cross Spending (/shopper-connect/cross-spending): the members who bought at the top bar's outlet over the
 * header's days, what they spent there, and where else in its mall they spent (by outlet and by category), in
 * the mall's currency. Each outlet opens the details of the pair; each table exports as CSV.
 */
export function CrossSpendingPage({ title }: PageProps) {
  const report = useReport(crossSpendingMachine);
  const panel = report.panelOf('report');
  // The answer also when it is empty ('No Data': no member bought there), for its headline.
  const answer = useSelector(report.actor, (snapshot): CrossSpendingAnswer | undefined => {
    const shown = snapshot?.context.panels.report;
    return shown?.status === 'loaded' || shown?.status === 'empty' ? shown.data : undefined;
  });
  const outletCurrency = useOutletCurrency();
  const currency = useMemo(
    () => (answer ? currencyFormat(answer.outlet.currency) : outletCurrency),
    [answer, outletCurrency],
  );
  const loaded = report.dataOf('report');
  const outlets = useMemo(() => loaded?.outlets ?? [], [loaded]);
  const categories = useMemo(() => categoriesBySharedShoppers(loaded?.categories ?? []), [loaded]);
  const start = report.query?.start;
  const end = report.query?.end;
  const outletId = answer?.outlet.outlet_id ?? report.query?.outletId ?? 0;
  const outletBars = useMemo(
    () =>
      sharedShopperBars(
        topOutletsBySharedShoppers(outlets).map((row) => ({ name: row.outlet_name, value: row.shared_shoppers })),
      ),
    [outlets],
  );
  const categoryBars = useMemo(
    () =>
      sharedShopperBars(categories.map((row) => ({ name: categoryLabel(row.category), value: row.shared_shoppers }))),
    [categories],
  );
  const choose = report.query === undefined && !report.loading;

  return (
    <CurrencyContext.Provider value={currency}>
      <section className="cross-spending-page" data-testid="cross-spending-page">
        <DateRangeHeader title={title} />
        <SubscribeToolbar report={report} />
        {choose ? (
          <Callout intent="primary" data-testid="cross-spending-choose">
            {CHOOSE_OUTLET_MESSAGE}
          </Callout>
        ) : (
          <Card className="cross-spending-headline" aria-busy={panel.status === 'loading'}>
            <PanelContent panel={panel} label="Cross spending">
              <p data-testid="cross-spending-headline">
                {answer && start && end ? crossSpendingHeadline(answer, { start, end }, currency) : null}
              </p>
            </PanelContent>
            {report.loading ? <Spinner size={16} data-testid="report-loading" /> : null}
          </Card>
        )}
        {/* A failed call is said once, with its retry, in the card above. */}
        {panel.status === 'failed' ? null : (
          <>
            <ReportBlock
              testId="cross-spending-outlets"
              title="Other outlets by shared shoppers"
              panel={panel}
              tablePlacement="below"
              controls={
                <TableExport
                  report={report}
                  what="outlets"
                  testId="export-outlets-csv"
                  file={() => crossSpendingOutletsCsv(outletId, outlets)}
                />
              }
              chart={
                <Chart
                  testId="cross-spending-outlets-chart"
                  options={outletBars}
                  height={barsHeight(Math.min(outlets.length, TOP_OUTLETS_CHARTED))}
                />
              }
              table={
                <ReportTable
                  testId="cross-spending-outlets-table"
                  columns={OUTLET_COLUMNS}
                  rows={outlets}
                  rowKey={(row) => String(row.outlet_id)}
                />
              }
            />
            <ReportBlock
              testId="cross-spending-categories"
              title="Categories by shared shoppers"
              panel={panel}
              tablePlacement="below"
              controls={
                <TableExport
                  report={report}
                  what="categories"
                  testId="export-categories-csv"
                  file={() => crossSpendingCategoriesCsv(outletId, categories)}
                />
              }
              chart={
                <Chart
                  testId="cross-spending-categories-chart"
                  options={categoryBars}
                  height={barsHeight(categories.length)}
                />
              }
              table={
                <ReportTable
                  testId="cross-spending-categories-table"
                  columns={CATEGORY_COLUMNS}
                  rows={categories}
                  rowKey={(row) => (row.category === null ? '' : `category-${row.category}`)}
                />
              }
            />
          </>
        )}
      </section>
    </CurrencyContext.Provider>
  );
}
