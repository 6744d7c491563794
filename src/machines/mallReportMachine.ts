import type { ChartAnnotation } from '../domain/chartAnnotations';
import type {
  DailyReportRow,
  MallGmvData,
  MallGroupRow,
  MallHomeKpis,
  MemberVsNonMemberData,
  PaymentMethodRow,
  PaymentOverTime,
  PeakHoursData,
} from '../domain/mallReportViews';
import { createQueryPageMachine } from './factories/queryPageMachine';
import {
  annotationsPanel,
  loadMallHomeKpis,
  loadPaymentOverTime,
  loadPeakHours,
  reportCalls,
} from './mallReportLoaders';

/** The five Shopper Connect report pages: each a query page (factories/queryPageMachine) with its panels. */

const noNumbers = (values: readonly number[]) => values.every((value) => value === 0);
const noTransactions = (rows: readonly { transactions: number }[]) => noNumbers(rows.map((row) => row.transactions));
const noRows = (rows: readonly unknown[]) => rows.length === 0;

export interface MallHomePanels {
  readonly kpis: MallHomeKpis;
  readonly daily: readonly DailyReportRow[];
  readonly outlets: readonly MallGroupRow[];
  readonly payments: readonly PaymentMethodRow[];
  /** The festivals, holidays and events the daily chart draws (none when their call fails). */
  readonly annotations: readonly ChartAnnotation[];
}

export const mallHomeReportMachine = createQueryPageMachine<MallHomePanels>({
  id: 'mallHomeReport',
  what: 'Mall home',
  comparisonInUrl: true,
  panels: {
    kpis: { load: (query, signal) => loadMallHomeKpis(query, { signal }) },
    daily: { load: (query, signal) => reportCalls.daily(query, { signal }), isEmpty: noTransactions },
    outlets: { load: (query, signal) => reportCalls.outlets(query, { signal }), isEmpty: noRows },
    payments: { load: (query, signal) => reportCalls.topPayments(query, { signal }), isEmpty: noRows },
    annotations: annotationsPanel,
  },
});

export type MallGmvPanels = MallGmvData & { readonly annotations: readonly ChartAnnotation[] };

export const mallGmvReportMachine = createQueryPageMachine<MallGmvPanels>({
  id: 'mallGmvReport',
  what: 'Mall GMV',
  panels: {
    daily: { load: (query, signal) => reportCalls.daily(query, { signal }), isEmpty: noTransactions },
    monthly: { load: (query, signal) => reportCalls.monthly(query, { signal }), isEmpty: noTransactions },
    outlets: { load: (query, signal) => reportCalls.outlets(query, { signal }), isEmpty: noRows },
    categories: { load: (query, signal) => reportCalls.categories(query, { signal }), isEmpty: noRows },
    levels: { load: (query, signal) => reportCalls.levels(query, { signal }), isEmpty: noRows },
    annotations: annotationsPanel,
  },
});

export interface PeakHoursPanels {
  readonly peakHours: PeakHoursData;
  /** The festivals, holidays and events the series draws over its days (daily time range). */
  readonly annotations: readonly ChartAnnotation[];
}

export const peakHoursReportMachine = createQueryPageMachine<PeakHoursPanels>({
  id: 'peakHoursReport',
  what: 'Peak hours',
  withHours: true,
  panels: {
    peakHours: {
      load: (query, signal) => loadPeakHours(query, { signal }),
      isEmpty: (data) => noNumbers(data.series.map((point) => point.value)),
    },
    annotations: annotationsPanel,
  },
});

export interface PaymentMethodsPanels {
  readonly overall: readonly PaymentMethodRow[];
  readonly overTime: PaymentOverTime;
}

export const paymentMethodsReportMachine = createQueryPageMachine<PaymentMethodsPanels>({
  id: 'paymentMethodsReport',
  what: 'Payment methods',
  panels: {
    overall: { load: (query, signal) => reportCalls.topPayments(query, { signal }), isEmpty: noRows },
    overTime: {
      load: (query, signal) => loadPaymentOverTime(query, { signal }),
      isEmpty: (data) => data.methods.length === 0,
    },
  },
});

export type MemberPanels = MemberVsNonMemberData;

export const memberReportMachine = createQueryPageMachine<MemberPanels>({
  id: 'memberReport',
  what: 'Member vs non-member',
  withHours: true,
  panels: {
    overall: {
      load: (query, signal) => reportCalls.memberOverall(query, { signal }),
      isEmpty: (data) => data.total.member === 0 && data.total.non_member === 0,
    },
    members: { load: (query, signal) => reportCalls.memberOutlets(query, { signal }), isEmpty: noRows },
    nonMembers: { load: (query, signal) => reportCalls.nonMemberOutlets(query, { signal }), isEmpty: noRows },
  },
});
