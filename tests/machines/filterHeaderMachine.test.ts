import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, fromPromise, type SnapshotFrom, setup, waitFor } from 'xstate';
import type { Mall, Outlet } from '../../src/api/lookup';
import type { DateRange, HourRange } from '../../src/domain/dateLimits';
import { type CommittedFilters, type FilterHeaderInput, selectedOutletIds } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { type Deferred, deferred } from '../support/deferred';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the filter header (§2, §4, §5, §9), written from the spec: what the user sees
 * (the committed filters, the Malls multi-select and its message, the 'Date Range Exceeded' alert,
 * disabled filters while the page fetches) and what the app keeps (the URL, the 14-day cookies). The
 * page is a Header V2 page offering Average Transaction Value. Every path drives a real header actor
 * whose lookups are deferred promises and whose URL and cookie writes are recorded.
 */

const TODAY = '2024-03-15';
const LAST_7: DateRange = { start: '2024-03-09', end: TODAY };
const LAST_30: DateRange = { start: '2024-02-15', end: TODAY };
const ALL_DAY: HourRange = { from: 0, to: 23 };

function mall(id: number, name: string): Mall {
  return { id, name, currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' };
}

function outlet(id: number, name: string): Outlet {
  return { id, name, type: 1, currency: 'SGD', mall_id: 1, outlet_code: null };
}

const MALLS: Record<number, Mall[]> = {
  3: [mall(1, 'Central'), mall(2, 'East'), mall(3, 'West')],
  4: [mall(5, 'North')],
};
const OUTLETS: Record<number, Outlet[]> = {
  3: [outlet(12, 'Kopi Corner'), outlet(7, 'Noodle Bar')],
  4: [outlet(20, 'Bakery')],
};

const INPUT: FilterHeaderInput = {
  today: TODAY,
  search: '',
  cookies: '',
  clientIds: [3, 4],
  defaultClientId: 3,
  page: { headerV2: true, averageTransactionValue: true },
};

const DEFAULT_FILTERS: CommittedFilters = {
  clientId: 3,
  mallIds: [1, 2, 3],
  outlet: 'all',
  dateRange: LAST_7,
  hours: ALL_DAY,
  timeRange: 'daily',
  metric: 'gmv',
  month: '2024-03',
};

const READY_SEARCH =
  'client=3&malls=1,2,3&outlet=all&from=2024-03-09&to=2024-03-15&hours=0-23&time_range=daily&metric=gmv';

function cookiesFor(clientId: number, outletValue: string | undefined, mallIds: string | undefined): string[] {
  const keep = '; Max-Age=1209600; Path=/; SameSite=Lax';
  const expire = '; Max-Age=0; Path=/; SameSite=Lax';
  return [
    `client_id=${clientId}${keep}`,
    outletValue === undefined ? `outlet_id=${expire}` : `outlet_id=${outletValue}${keep}`,
    mallIds === undefined ? `mall_ids=${expire}` : `mall_ids=${mallIds}${keep}`,
  ];
}

interface FakeServer {
  malls?: Deferred<Mall[]>;
  outlets?: Deferred<Outlet[]>;
  mallRequests: number[];
  outletRequests: number[];
}

let server: FakeServer;
let urlWrites: { search: string; replace: boolean }[];
let cookieWrites: string[][];
let notices: Notice[];

const testMachine = filterHeaderMachine.provide({
  actors: {
    fetchMalls: fromPromise<Mall[], { clientId: number }>(({ input }) => {
      server.mallRequests.push(input.clientId);
      server.malls = deferred();
      return server.malls.promise;
    }),
    fetchOutlets: fromPromise<Outlet[], { clientId: number }>(({ input }) => {
      server.outletRequests.push(input.clientId);
      server.outlets = deferred();
      return server.outlets.promise;
    }),
  },
  actions: {
    writeUrl: (_, params: { search: string; replace: boolean }) => {
      urlWrites.push({ search: params.search, replace: params.replace });
    },
    writeCookies: (_, params: { cookies: readonly string[] }) => {
      cookieWrites.push([...params.cookies]);
    },
  },
});

let actor: Actor<typeof testMachine>;

function startActor(input: FilterHeaderInput = INPUT): void {
  server = { mallRequests: [], outletRequests: [] };
  urlWrites = [];
  cookieWrites = [];
  notices = [];
  actor = createActor(testMachine, { input });
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
}

type HeaderSnapshot = SnapshotFrom<typeof testMachine>;

function snapshot(): HeaderSnapshot {
  return actor.getSnapshot();
}

function datePicker() {
  const picker = snapshot().children.dateRangePicker;
  if (!picker) throw new Error('no date range picker');
  return picker;
}

function hourPicker() {
  const picker = snapshot().children.hourPicker;
  if (!picker) throw new Error('no hour picker');
  return picker;
}

function take<T>(pending: Deferred<T> | undefined, call: string): Deferred<T> {
  if (!pending) throw new Error(`the machine did not call ${call}`);
  return pending;
}

async function settle(predicate: (state: HeaderSnapshot) => boolean): Promise<void> {
  await waitFor(actor, predicate, { timeout: 1_000 });
}

const lookupsLoaded = (state: HeaderSnapshot) =>
  state.matches({ lookups: { active: { malls: 'loaded', outlets: 'loaded' } } });

async function loadLookups(): Promise<void> {
  const clientId = snapshot().context.filters.clientId ?? 0;
  take(server.malls, 'GET /malls').resolve(MALLS[clientId] ?? []);
  take(server.outlets, 'GET /outlets').resolve(OUTLETS[clientId] ?? []);
  await settle(lookupsLoaded);
}

type ModelEvent = {
  type:
    | 'server.lookupsLoaded'
    | 'server.mallsFailed'
    | 'server.mallsLoaded'
    | 'lookups.retry'
    | 'malls.open'
    | 'malls.deselectAll'
    | 'malls.selectAll'
    | 'malls.toggleEast'
    | 'malls.apply'
    | 'malls.cancel'
    | 'page.loading'
    | 'page.loaded'
    | 'timeRange.hourly'
    | 'metric.averageTransactionValue'
    | 'alert.dismiss'
    | 'datePicker.applyLast30'
    | 'datePicker.applyYearToDate'
    | 'dateRange.sendTooLong'
    | 'hourPicker.applyNineToFive'
    | 'outlet.chooseNoodleBar'
    | 'client.chooseOther'
    | 'url.back'
    | 'url.invalid'
    | 'filters.toggle'
    | 'page.next';
};

const headerModel = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'headerModel',
    initial: 'loading',
    states: {
      loading: {
        on: {
          'server.lookupsLoaded': 'ready',
          'server.mallsFailed': 'mallsFailed',
          'client.chooseOther': 'loadingOtherClient',
        },
      },
      mallsFailed: { on: { 'lookups.retry': 'retrying' } },
      retrying: { on: { 'server.mallsLoaded': 'ready' } },
      ready: {
        on: {
          'malls.open': 'mallsOpen',
          'page.loading': 'busy',
          'timeRange.hourly': 'hourly',
          'metric.averageTransactionValue': 'dailyAverage',
          'datePicker.applyLast30': 'last30',
          'datePicker.applyYearToDate': 'yearToDate',
          'dateRange.sendTooLong': 'rangeRefused',
          'hourPicker.applyNineToFive': 'nineToFive',
          'outlet.chooseNoodleBar': 'noodleBar',
          'client.chooseOther': 'loadingOtherClient',
          'url.back': 'fromUrl',
          'url.invalid': 'invalidUrlIgnored',
          'filters.toggle': 'filtersOpen',
        },
      },
      filtersOpen: { on: { 'filters.toggle': 'ready', 'page.next': 'nextPage' } },
      nextPage: {},
      mallsOpen: {
        on: {
          'malls.deselectAll': 'mallsNone',
          'malls.toggleEast': 'mallsWithoutEast',
          'malls.apply': 'ready',
          'malls.cancel': 'ready',
        },
      },
      mallsNone: { on: { 'malls.apply': 'mallsError', 'malls.selectAll': 'mallsOpen', 'malls.cancel': 'ready' } },
      mallsError: {
        on: {
          'malls.apply': 'mallsError',
          'malls.toggleEast': 'mallsOnlyEast',
          'malls.selectAll': 'mallsOpen',
          'malls.cancel': 'ready',
        },
      },
      mallsWithoutEast: {
        on: { 'malls.apply': 'twoMalls', 'malls.toggleEast': 'mallsOpen', 'malls.cancel': 'ready' },
      },
      mallsOnlyEast: { on: { 'malls.apply': 'eastOnly' } },
      twoMalls: { on: { 'malls.open': 'mallsWithoutEast' } },
      eastOnly: { on: { 'client.chooseOther': 'loadingOtherClient' } },
      busy: { on: { 'page.loading': 'busyTwice', 'page.loaded': 'ready' } },
      busyTwice: { on: { 'page.loaded': 'busy' } },
      hourly: { on: { 'metric.averageTransactionValue': 'averageRefused' } },
      averageRefused: { on: { 'alert.dismiss': 'hourly' } },
      dailyAverage: { on: { 'timeRange.hourly': 'hourlyRefused' } },
      hourlyRefused: { on: { 'alert.dismiss': 'dailyAverage' } },
      last30: {},
      yearToDate: {},
      rangeRefused: { on: { 'alert.dismiss': 'ready' } },
      nineToFive: {},
      noodleBar: {},
      loadingOtherClient: { on: { 'server.lookupsLoaded': 'otherClient' } },
      otherClient: {},
      fromUrl: {},
      invalidUrlIgnored: {},
    },
  }),
);

function expectFilters(expected: Partial<CommittedFilters>): void {
  expect(snapshot().context.filters).toEqual({ ...DEFAULT_FILTERS, ...expected });
}

function expectEnabled(): void {
  const state = snapshot();
  expect(state.hasTag('disabled')).toBe(false);
  expect(state.context.pendingFetches).toBe(0);
  expect(state.can({ type: 'timeRange.change', timeRange: 'weekly' })).toBe(true);
  expect(datePicker().getSnapshot().can({ type: 'dateRange.open' })).toBe(true);
  expect(hourPicker().getSnapshot().can({ type: 'hours.open' })).toBe(true);
}

function expectLastUrl(search: string, replace: boolean): void {
  expect(urlWrites.at(-1)).toEqual({ search, replace });
  expect(snapshot().context.search).toBe(search);
}

function expectNoAlert(): void {
  expect(snapshot().matches({ alert: 'hidden' })).toBe(true);
  expect(snapshot().context.alert).toBeUndefined();
}

function expectAlert(message: string): void {
  expect(snapshot().matches({ alert: 'shown' })).toBe(true);
  expect(snapshot().context.alert).toEqual({ title: 'Date Range Exceeded', message });
}

function expectMallsOpen(draft: number[], error?: string): void {
  const state = snapshot();
  expect(state.matches({ mallSelect: { open: error === undefined ? 'editing' : 'invalid' } })).toBe(true);
  expect(state.context.mallDraft).toEqual(draft);
  expect(state.context.mallError).toBe(error);
  // Apply is always offered; it says why it refuses.
  expect(state.can({ type: 'malls.apply' })).toBe(true);
  expect(state.can({ type: 'malls.toggle', mallId: 99 })).toBe(false);
}

function expectReady(): void {
  const state = snapshot();
  expectFilters({});
  expect(lookupsLoaded(state)).toBe(true);
  expect(state.context.malls.map((known) => known.name)).toEqual(['Central', 'East', 'West']);
  expect(selectedOutletIds(state.context)).toBe('12,7');
  expect(state.matches({ mallSelect: 'closed' })).toBe(true);
  expect(state.can({ type: 'malls.open' })).toBe(true);
  expectNoAlert();
  expectEnabled();
  expect(snapshot().context.search).toBe(READY_SEARCH);
  expect(cookieWrites.at(-1)).toEqual(cookiesFor(3, 'all', '1%2C2%2C3'));
  expect(datePicker().getSnapshot().context.committed).toEqual(LAST_7);
  expect(datePicker().getSnapshot().context.note).toBe('(Max range of 31 days)');
  expect(hourPicker().getSnapshot().context.committed).toEqual(ALL_DAY);
}

function expectBusy(pending: number): void {
  const state = snapshot();
  expect(state.hasTag('disabled')).toBe(true);
  expect(state.context.pendingFetches).toBe(pending);
  expect(state.can({ type: 'malls.open' })).toBe(false);
  expect(state.can({ type: 'timeRange.change', timeRange: 'weekly' })).toBe(false);
  expect(state.can({ type: 'metric.change', metric: 'transactions' })).toBe(false);
  expect(state.can({ type: 'outlet.change', outlet: 7 })).toBe(false);
  expect(datePicker().getSnapshot().can({ type: 'dateRange.open' })).toBe(false);
  expect(hourPicker().getSnapshot().can({ type: 'hours.open' })).toBe(false);
  expectFilters({});
}

const testParams: TestParam<SnapshotFrom<typeof headerModel.logic>, ModelEvent> = {
  states: {
    loading: () => {
      const state = snapshot();
      expect(state.hasTag('mallsLoading')).toBe(true);
      expect(state.hasTag('outletsLoading')).toBe(true);
      expect(state.can({ type: 'malls.open' })).toBe(false);
      expectFilters({ mallIds: [], outlet: undefined });
      expect(server.mallRequests).toEqual([3]);
      expect(server.outletRequests).toEqual([3]);
      // The defaults are put in the URL at once, replacing the entry.
      expect(urlWrites).toEqual([
        { search: 'client=3&from=2024-03-09&to=2024-03-15&hours=0-23&time_range=daily&metric=gmv', replace: true },
      ]);
      expect(cookieWrites).toEqual([]);
    },
    mallsFailed: () => {
      const state = snapshot();
      expect(state.matches({ lookups: { active: { malls: 'failure', outlets: 'loaded' } } })).toBe(true);
      expect(notices).toEqual([
        {
          type: 'notify',
          intent: 'danger',
          message: 'Options fetching error occurs. Please try again later.',
          timeout: 5_000,
        },
      ]);
      expect(state.context.malls).toEqual([]);
      expect(state.can({ type: 'malls.open' })).toBe(false);
      expect(state.can({ type: 'lookups.retry' })).toBe(true);
      expectFilters({ mallIds: [] });
    },
    retrying: () => {
      expect(snapshot().hasTag('mallsLoading')).toBe(true);
      expect(snapshot().hasTag('outletsLoading')).toBe(false);
      expect(server.mallRequests).toEqual([3, 3]);
    },
    ready: expectReady,
    mallsOpen: () => expectMallsOpen([1, 2, 3]),
    mallsNone: () => expectMallsOpen([]),
    mallsError: () => {
      expectMallsOpen([], 'Please select a mall');
      expectFilters({});
    },
    mallsWithoutEast: () => expectMallsOpen([1, 3]),
    mallsOnlyEast: () => expectMallsOpen([2]),
    twoMalls: () => {
      expectFilters({ mallIds: [1, 3] });
      expect(snapshot().matches({ mallSelect: 'closed' })).toBe(true);
      expectLastUrl(READY_SEARCH.replace('malls=1,2,3', 'malls=1,3'), false);
      expect(cookieWrites.at(-1)).toEqual(cookiesFor(3, 'all', '1%2C3'));
    },
    eastOnly: () => {
      expectFilters({ mallIds: [2] });
      expectLastUrl(READY_SEARCH.replace('malls=1,2,3', 'malls=2'), false);
      expect(cookieWrites.at(-1)).toEqual(cookiesFor(3, 'all', '2'));
    },
    busy: () => expectBusy(1),
    busyTwice: () => expectBusy(2),
    hourly: () => {
      expectFilters({ timeRange: 'hourly' });
      expectNoAlert();
      expectLastUrl(READY_SEARCH.replace('time_range=daily', 'time_range=hourly'), false);
      expect(datePicker().getSnapshot().context.note).toBe('(Max range of 31 days)');
    },
    averageRefused: () => {
      // Hourly + Average Transaction Value allows 1 day; the 7-day range is kept and the metric is not changed.
      expectAlert('You have selected a date range more than 1 day. Please try again.');
      expectFilters({ timeRange: 'hourly' });
    },
    dailyAverage: () => {
      expectFilters({ metric: 'average_transaction_value' });
      expectNoAlert();
      expectLastUrl(READY_SEARCH.replace('metric=gmv', 'metric=average_transaction_value'), false);
    },
    hourlyRefused: () => {
      expectAlert('You have selected a date range more than 1 day. Please try again.');
      expectFilters({ metric: 'average_transaction_value' });
    },
    last30: () => {
      expectFilters({ dateRange: LAST_30 });
      expectLastUrl(READY_SEARCH.replace('from=2024-03-09', 'from=2024-02-15'), false);
      expect(datePicker().getSnapshot().matches('closed')).toBe(true);
      expect(datePicker().getSnapshot().context.committed).toEqual(LAST_30);
    },
    // Year to date on 15 Mar is 75 days: longer than Daily allows, so the time range moves to Weekly with it.
    yearToDate: () => {
      const ytd = { start: '2024-01-01', end: TODAY };
      expectFilters({ dateRange: ytd, timeRange: 'weekly' });
      expectNoAlert();
      // One history entry for both.
      expect(urlWrites.filter((write) => !write.replace)).toHaveLength(1);
      expectLastUrl(
        READY_SEARCH.replace('from=2024-03-09', 'from=2024-01-01').replace('time_range=daily', 'time_range=weekly'),
        false,
      );
      const picker = datePicker().getSnapshot();
      expect(picker.matches('closed')).toBe(true);
      expect(picker.context.committed).toEqual(ytd);
      expect(picker.context.note).toBe('(Max range of 93 days)');
      expect(picker.context.timeRanges?.current).toBe('weekly');
      expect(picker.context.presets.find((preset) => preset.id === 'yearToDate')?.timeRange).toBeUndefined();
    },
    rangeRefused: () => {
      expectAlert('You have selected a date range more than 31 days. Please try again.');
      expectFilters({});
      expect(datePicker().getSnapshot().context.committed).toEqual(LAST_7);
      expect(snapshot().context.search).toBe(READY_SEARCH);
    },
    nineToFive: () => {
      expectFilters({ hours: { from: 9, to: 17 } });
      expectLastUrl(READY_SEARCH.replace('hours=0-23', 'hours=9-17'), false);
      expect(hourPicker().getSnapshot().context.committed).toEqual({ from: 9, to: 17 });
    },
    noodleBar: () => {
      expectFilters({ outlet: 7 });
      expect(selectedOutletIds(snapshot().context)).toBe('7');
      expectLastUrl(READY_SEARCH.replace('outlet=all', 'outlet=7'), false);
      expect(cookieWrites.at(-1)).toEqual(cookiesFor(3, '7', '1%2C2%2C3'));
    },
    loadingOtherClient: () => {
      const state = snapshot();
      // Changing the client clears the malls (and the outlet) and loads the new client's lists.
      expectFilters({ clientId: 4, mallIds: [], outlet: undefined });
      expect(state.context.malls).toEqual([]);
      expect(state.context.outlets).toEqual([]);
      expect(state.hasTag('mallsLoading')).toBe(true);
      expect(state.hasTag('outletsLoading')).toBe(true);
      expect(server.mallRequests.at(-1)).toBe(4);
      expect(server.outletRequests.at(-1)).toBe(4);
      expect(cookieWrites.at(-1)).toEqual(cookiesFor(4, undefined, undefined));
      expectLastUrl('client=4&from=2024-03-09&to=2024-03-15&hours=0-23&time_range=daily&metric=gmv', false);
    },
    otherClient: () => {
      expectFilters({ clientId: 4, mallIds: [5] });
      expect(selectedOutletIds(snapshot().context)).toBe('20');
      expect(cookieWrites.at(-1)).toEqual(cookiesFor(4, 'all', '5'));
      expectLastUrl(READY_SEARCH.replace('client=3&malls=1,2,3', 'client=4&malls=5'), true);
    },
    fromUrl: () => {
      const range = { start: '2024-03-01', end: '2024-03-10' };
      expectFilters({ mallIds: [2], dateRange: range, timeRange: 'weekly' });
      expect(snapshot().context.urlReasons).toEqual([]);
      // Back/forward never adds a history entry; the URL is only completed.
      expect(urlWrites.filter((write) => !write.replace)).toEqual([]);
      expectLastUrl(
        'client=3&malls=2&outlet=all&from=2024-03-01&to=2024-03-10&hours=0-23&time_range=weekly&metric=gmv',
        true,
      );
      expect(datePicker().getSnapshot().context.committed).toEqual(range);
      expect(datePicker().getSnapshot().context.note).toBe('(Max range of 93 days)');
      expect(cookieWrites.at(-1)).toEqual(cookiesFor(3, 'all', '2'));
    },
    filtersOpen: () => {
      expect(snapshot().hasTag('filtersExpanded')).toBe(true);
      expectFilters({});
    },
    // Another page's filters start under their line.
    nextPage: () => {
      expect(snapshot().hasTag('filtersExpanded')).toBe(false);
      expect(snapshot().matches({ line: 'collapsed' })).toBe(true);
    },
    invalidUrlIgnored: () => {
      expectFilters({});
      expect(snapshot().context.urlReasons.map((reason) => `${reason.key}:${reason.problem}`)).toEqual([
        'metric:unknownValue',
        'to:futureDate',
        'hours:hoursOrder',
      ]);
      expect(urlWrites.filter((write) => !write.replace)).toEqual([]);
      expectLastUrl(READY_SEARCH, true);
    },
  },
  events: {
    'server.lookupsLoaded': loadLookups,
    'server.mallsFailed': async () => {
      take(server.outlets, 'GET /outlets').resolve(OUTLETS[3] ?? []);
      take(server.malls, 'GET /malls').reject(new Error('Failed to fetch'));
      await settle((state) => state.matches({ lookups: { active: { malls: 'failure', outlets: 'loaded' } } }));
    },
    'server.mallsLoaded': async () => {
      take(server.malls, 'GET /malls').resolve(MALLS[3] ?? []);
      await settle(lookupsLoaded);
    },
    'lookups.retry': () => actor.send({ type: 'lookups.retry' }),
    'malls.open': () => actor.send({ type: 'malls.open' }),
    'malls.deselectAll': () => actor.send({ type: 'malls.deselectAll' }),
    'malls.selectAll': () => actor.send({ type: 'malls.selectAll' }),
    'malls.toggleEast': () => actor.send({ type: 'malls.toggle', mallId: 2 }),
    'malls.apply': () => actor.send({ type: 'malls.apply' }),
    'malls.cancel': () => actor.send({ type: 'malls.cancel' }),
    'page.loading': () => actor.send({ type: 'page.loading' }),
    'page.loaded': () => actor.send({ type: 'page.loaded' }),
    'timeRange.hourly': () => actor.send({ type: 'timeRange.change', timeRange: 'hourly' }),
    'metric.averageTransactionValue': () => actor.send({ type: 'metric.change', metric: 'average_transaction_value' }),
    'alert.dismiss': () => actor.send({ type: 'alert.dismiss' }),
    'datePicker.applyLast30': async () => {
      datePicker().send({ type: 'dateRange.open' });
      datePicker().send({ type: 'dateRange.selectOption', option: 'last30' });
      datePicker().send({ type: 'dateRange.apply' });
      await settle((state) => state.context.filters.dateRange.start === LAST_30.start);
    },
    'datePicker.applyYearToDate': async () => {
      datePicker().send({ type: 'dateRange.open' });
      datePicker().send({ type: 'dateRange.selectOption', option: 'yearToDate' });
      datePicker().send({ type: 'dateRange.apply' });
      await settle((state) => state.context.filters.dateRange.start === '2024-01-01');
    },
    'dateRange.sendTooLong': () => actor.send({ type: 'dateRange.change', range: { start: '2024-02-01', end: TODAY } }),
    'hourPicker.applyNineToFive': async () => {
      hourPicker().send({ type: 'hours.open' });
      hourPicker().send({ type: 'hours.changeFrom', hour: 9 });
      hourPicker().send({ type: 'hours.changeTo', hour: 17 });
      hourPicker().send({ type: 'hours.apply' });
      await settle((state) => state.context.filters.hours.from === 9);
    },
    'outlet.chooseNoodleBar': () => actor.send({ type: 'outlet.change', outlet: 7 }),
    'client.chooseOther': () => actor.send({ type: 'client.change', clientId: 4 }),
    'url.back': () =>
      actor.send({ type: 'url.change', search: '?client=3&malls=2&from=2024-03-01&to=2024-03-10&time_range=weekly' }),
    'filters.toggle': () => actor.send({ type: 'filters.toggle' }),
    'page.next': () => actor.send({ type: 'page.change', page: {} }),
    'url.invalid': () =>
      actor.send({ type: 'url.change', search: '?from=2024-03-10&to=2024-03-20&hours=18-9&metric=profit&client=99' }),
  },
};

describe('filterHeaderMachine (model-based)', () => {
  beforeEach(() => startActor());
  afterEach(() => actor.stop());

  describeModelCoverage(headerModel, testParams, { states: Object.keys(testParams.states ?? {}), transitions: 46 });
});

describe('filterHeaderMachine details', () => {
  afterEach(() => actor.stop());

  async function startLoaded(input: Partial<FilterHeaderInput> = {}): Promise<void> {
    startActor({ ...INPUT, ...input });
    await loadLookups();
  }

  it('starts from the cookies when the URL has no filters', async () => {
    await startLoaded({ cookies: 'client_id=3; outlet_id=7; mall_ids=1%2C3' });
    expectFilters({ mallIds: [1, 3], outlet: 7 });
    expectLastUrl(READY_SEARCH.replace('malls=1,2,3&outlet=all', 'malls=1,3&outlet=7'), true);
  });

  it('prefers the URL to the cookies, and ignores cookies of another client', async () => {
    await startLoaded({
      search: '?client=4&time_range=weekly&from=2024-01-01&to=2024-03-15',
      cookies: 'client_id=3; outlet_id=7; mall_ids=1%2C3',
    });
    expectFilters({
      clientId: 4,
      mallIds: [5],
      outlet: 'all',
      timeRange: 'weekly',
      dateRange: { start: '2024-01-01', end: TODAY },
    });
    expect(server.mallRequests).toEqual([4]);
    expect(datePicker().getSnapshot().context.note).toBe('(Max range of 93 days)');
  });

  it('falls back to the defaults for what the URL gets wrong, and says why', async () => {
    await startLoaded({ search: '?client=99&from=2024-03-12&to=2024-03-10&hours=0-24&time_range=yearly&tab=fees' });
    expectFilters({});
    expect(snapshot().context.urlReasons.map((reason) => `${reason.key}:${reason.problem}`)).toEqual([
      'time_range:unknownValue',
      'from:startAfterEnd',
      'hours:hoursOutOfRange',
    ]);
    // The page's own parameters stay in the URL.
    expectLastUrl(`tab=fees&${READY_SEARCH}`, true);
  });

  it('shortens a range from the URL that is longer than the maximum of a page without Header V2', async () => {
    await startLoaded({ page: {}, search: '?from=2024-01-01&to=2024-03-15&time_range=weekly' });
    // Time range and metric are not this page's filters: the page's 31 days apply and they stay out of the URL.
    expect(snapshot().context.filters.dateRange).toEqual(LAST_7);
    expect(snapshot().context.urlReasons[0]?.problem).toBe('rangeExceeded');
    expectLastUrl('client=3&malls=1,2,3&outlet=all&from=2024-03-09&to=2024-03-15', true);
  });

  it('loads nothing without a client', () => {
    startActor({ ...INPUT, clientIds: [], defaultClientId: null });
    expect(snapshot().matches({ lookups: { active: { malls: 'idle', outlets: 'idle' } } })).toBe(true);
    expect(server.mallRequests).toEqual([]);
    expect(snapshot().can({ type: 'malls.open' })).toBe(false);
  });

  it('refuses a client the user may not see, or the same client', async () => {
    await startLoaded();
    expect(snapshot().can({ type: 'client.change', clientId: 9 })).toBe(false);
    expect(snapshot().can({ type: 'client.change', clientId: 3 })).toBe(false);
    expect(snapshot().can({ type: 'client.change', clientId: 4 })).toBe(true);
  });

  it('selects the first outlet on single-outlet pages and locks a disabled dropdown', async () => {
    await startLoaded();
    actor.send({ type: 'page.change', page: { outletMode: 'single' } });
    expect(snapshot().context.filters.outlet).toBe(12);
    expect(snapshot().can({ type: 'outlet.change', outlet: 'all' })).toBe(false);
    expect(snapshot().can({ type: 'outlet.change', outlet: 7 })).toBe(true);
    expect(cookieWrites.at(-1)).toEqual(cookiesFor(3, '12', '1%2C2%2C3'));
    // Page changes complete the URL without a history entry.
    expectLastUrl('client=3&malls=1,2,3&outlet=12&from=2024-03-09&to=2024-03-15', true);
    actor.send({ type: 'page.change', page: { outletMode: 'disabled' } });
    expect(snapshot().context.filters.outlet).toBe(12);
    expect(snapshot().can({ type: 'outlet.change', outlet: 7 })).toBe(false);
    actor.send({ type: 'page.change', page: { outletMode: 'all' } });
    expect(snapshot().can({ type: 'outlet.change', outlet: 'all' })).toBe(true);
  });

  it('resets a metric the page does not offer and shortens the range to the page maximum', async () => {
    await startLoaded();
    actor.send({ type: 'timeRange.change', timeRange: 'weekly' });
    datePicker().send({ type: 'dateRange.open' });
    datePicker().send({ type: 'dateRange.changeStart', date: '2024-01-15' });
    datePicker().send({ type: 'dateRange.apply' });
    await settle((state) => state.context.filters.dateRange.start === '2024-01-15');
    actor.send({ type: 'metric.change', metric: 'average_transaction_value' });
    // Back to Daily with a 61-day range: refused, 31 days.
    actor.send({ type: 'timeRange.change', timeRange: 'daily' });
    expectAlert('You have selected a date range more than 31 days. Please try again.');
    actor.send({ type: 'alert.dismiss' });
    actor.send({ type: 'page.change', page: { headerV2: true, averageTransactionValue: false } });
    expect(snapshot().context.filters.metric).toBe('gmv');
    expect(snapshot().context.filters.dateRange).toEqual({ start: '2024-01-15', end: TODAY });
    expect(snapshot().can({ type: 'metric.change', metric: 'average_transaction_value' })).toBe(false);
    actor.send({ type: 'page.change', page: {} });
    expect(snapshot().context.filters.dateRange).toEqual({ start: '2024-02-14', end: TODAY });
    expect(datePicker().getSnapshot().context.committed).toEqual({ start: '2024-02-14', end: TODAY });
    expect(datePicker().getSnapshot().context.note).toBe('(Max range of 31 days)');
    expect(snapshot().can({ type: 'timeRange.change', timeRange: 'hourly' })).toBe(false);
  });

  it('gives the picker Quarter to date and Year to date on Header V2 pages, switching to the time range that fits', async () => {
    await startLoaded({ today: '2024-08-20', search: '' });
    const picker = () => datePicker().getSnapshot();
    const preset = (id: string) => picker().context.presets.find((known) => known.id === id);
    expect(preset('quarterToDate')).toMatchObject({
      range: { start: '2024-07-01', end: '2024-08-20' },
      timeRange: 'weekly',
    });
    expect(preset('yearToDate')).toMatchObject({
      range: { start: '2024-01-01', end: '2024-08-20' },
      timeRange: 'monthly',
    });
    datePicker().send({ type: 'dateRange.open' });
    datePicker().send({ type: 'dateRange.selectOption', option: 'yearToDate' });
    datePicker().send({ type: 'dateRange.apply' });
    expect(snapshot().context.filters).toMatchObject({
      dateRange: { start: '2024-01-01', end: '2024-08-20' },
      timeRange: 'monthly',
    });
    expect(picker().context.note).toBe('(Max range of 366 days)');
    // Last month fits Monthly: the time range stays.
    datePicker().send({ type: 'dateRange.open' });
    datePicker().send({ type: 'dateRange.selectOption', option: 'lastMonth' });
    datePicker().send({ type: 'dateRange.apply' });
    expect(snapshot().context.filters).toMatchObject({
      dateRange: { start: '2024-07-01', end: '2024-07-31' },
      timeRange: 'monthly',
    });
    // Average Transaction Value on Hourly allows one day: This month asks for Daily.
    actor.send({ type: 'dateRange.change', range: { start: '2024-08-20', end: '2024-08-20' } });
    actor.send({ type: 'timeRange.change', timeRange: 'hourly' });
    actor.send({ type: 'metric.change', metric: 'average_transaction_value' });
    expect(preset('thisMonth')).toMatchObject({ timeRange: 'daily', maxDays: 31 });
    // While a page loads, a preset's time range is refused with its range.
    actor.send({ type: 'page.loading' });
    actor.send({ type: 'dateRange.change', range: { start: '2024-08-01', end: '2024-08-20' }, timeRange: 'daily' });
    expect(snapshot().context.filters).toMatchObject({ timeRange: 'hourly' });
    actor.send({ type: 'page.loaded' });
    expectAlert('You have selected a date range more than 1 day. Please try again.');
  });

  it('offers no Quarter to date or Year to date without Header V2, and refuses a time range sent with a range', async () => {
    await startLoaded({ today: '2024-08-20', page: {} });
    expect(
      datePicker()
        .getSnapshot()
        .context.presets.map((preset) => preset.id),
    ).toEqual(['thisMonth', 'lastMonth']);
    actor.send({ type: 'dateRange.change', range: { start: '2024-01-01', end: '2024-08-20' }, timeRange: 'monthly' });
    expectAlert('You have selected a date range more than 31 days. Please try again.');
    expect(snapshot().context.filters.timeRange).toBe('daily');
    expect(snapshot().context.filters.dateRange).toEqual({ start: '2024-08-14', end: '2024-08-20' });
  });

  it('allows 31 days on breakeven pages whatever the time range', async () => {
    await startLoaded({ search: '?time_range=monthly' });
    expect(datePicker().getSnapshot().context.note).toBe('(Max range of 366 days)');
    actor.send({ type: 'page.change', page: { headerV2: true, breakeven: true } });
    expect(datePicker().getSnapshot().context.note).toBe('(Max range of 31 days)');
    actor.send({ type: 'dateRange.change', range: { start: '2024-01-01', end: TODAY } });
    expectAlert('You have selected a date range more than 31 days. Please try again.');
  });

  it('keeps a month on monthly pages', async () => {
    await startLoaded({ page: { period: 'month' } });
    expect(snapshot().context.filters.month).toBe('2024-03');
    expectLastUrl('client=3&malls=1,2,3&outlet=all&month=2024-03', true);
    expect(snapshot().can({ type: 'month.change', month: '2024-04' })).toBe(false);
    expect(snapshot().can({ type: 'month.change', month: 'March' })).toBe(false);
    actor.send({ type: 'month.change', month: '2023-11' });
    expectLastUrl('client=3&malls=1,2,3&outlet=all&month=2023-11', false);
    actor.send({ type: 'page.change', page: {} });
    expect(snapshot().can({ type: 'month.change', month: '2023-10' })).toBe(false);
  });

  it('limits a user with the date-picker limitation to yesterday and today', async () => {
    await startLoaded({ limited: true });
    expect(snapshot().context.window).toEqual({ earliest: '2024-03-14', latest: TODAY });
    expect(snapshot().context.filters.dateRange).toEqual({ start: '2024-03-14', end: TODAY });
    expect(datePicker().getSnapshot().context.quickRangesShown).toBe(false);
    actor.send({ type: 'dateRange.change', range: { start: '2024-03-10', end: TODAY } });
    expect(snapshot().context.alert?.message).toBe(
      'You have selected a date before 14 Mar 2024. Please try again with another date.',
    );
  });

  it('gives the picker the mobile variant on mobile', () => {
    startActor({ ...INPUT, mobile: true });
    expect(datePicker().getSnapshot().context.variant).toBe('mobile');
  });

  it('reloads the lists when the URL names another client, keeping its malls', async () => {
    await startLoaded();
    actor.send({ type: 'url.change', search: '?client=4&malls=5' });
    expect(server.mallRequests).toEqual([3, 4]);
    expect(snapshot().context.malls).toEqual([]);
    await loadLookups();
    expectFilters({ clientId: 4, mallIds: [5] });
    expect(urlWrites.filter((write) => !write.replace)).toEqual([]);
  });

  it('ignores page.loaded without a pending fetch', async () => {
    await startLoaded();
    expect(snapshot().can({ type: 'page.loaded' })).toBe(false);
    actor.send({ type: 'page.loaded' });
    expect(snapshot().context.pendingFetches).toBe(0);
  });

  it('does not write the URL again when nothing changed', async () => {
    await startLoaded();
    const writes = urlWrites.length;
    actor.send({ type: 'malls.open' });
    actor.send({ type: 'malls.apply' });
    actor.send({ type: 'url.change', search: `?${READY_SEARCH}` });
    expect(urlWrites).toHaveLength(writes);
  });
});
