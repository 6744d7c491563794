import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, assign, createActor, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { createApiClient } from '../../src/api/client';
import type { Outlet } from '../../src/api/lookup';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { TenantReceipt } from '../../src/api/tenant';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import type { PagedListAnswer } from '../../src/machines/factories/pagedListMachine';
import {
  loadTenantReceipts,
  type TenantReceiptListQuery,
  tenantReceiptDataMachine,
  tenantReceiptFiltersOf,
  tenantReceiptListMachine,
  tenantReceiptsCsv,
} from '../../src/machines/tenantReceiptDataMachine';
import { type Deferred, deferred } from '../support/deferred';
import { childOf } from './childOf';
import { describeModelCoverage } from './modelCoverage';

/*
 * The tenant's Receipt Data page machine beside a stand-in filter header (systemId 'filterHeader') whose committed
 * filters the test sets: the filters it tells its list (the header's client, one outlet and days), the receipt image
 * and the CSV of the rows shown. The list's own paths are the paged-list factory's (pagedListMachine.test.ts); the
 * model here walks the page as a user does, with every server answer given by the test.
 */

const KOPI: Outlet = { id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null };
const BAKERY: Outlet = { id: 13, name: 'Bakery', type: 2, currency: 'SGD', mall_id: 1, outlet_code: null };

const FILTERS: CommittedFilters = {
  clientId: 3,
  mallIds: [1],
  outlet: KOPI.id,
  dateRange: { start: '2026-11-19', end: '2026-11-25' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: undefined,
};

const ROWS: TenantReceipt[] = [
  {
    id: 7,
    receipt_id: 'K-1001',
    has_image: true,
    payment_method: ['VISA', 'CASH'],
    receipt_status: 'Closed',
    total_amount: 1234.5,
    datetime: '2026-11-24 12:30:00',
  },
  {
    id: 8,
    receipt_id: '1732450000',
    has_image: true,
    payment_method: ['CASH'],
    receipt_status: 'Void',
    total_amount: -3,
    datetime: '2026-11-23 09:00:05',
  },
];
const TOTAL = 25;
const IMAGE = 'data:image/png;base64,AAAA';

/** A stand-in filter header holding `filters` as its committed filters until told others. */
function headerWith(filters: CommittedFilters) {
  return setup({
    types: {
      context: {} as { filters: CommittedFilters; outlets: Outlet[]; today: string },
      events: {} as { type: 'filters.set'; filters: CommittedFilters },
    },
  }).createMachine({
    context: { filters, outlets: [KOPI, BAKERY], today: '2026-11-25' },
    on: { 'filters.set': { actions: assign(({ event }) => ({ filters: event.filters })) } },
  });
}

type Answer = PagedListAnswer<TenantReceipt>;
let loads: { query: TenantReceiptListQuery; answer: Deferred<Answer> }[];
let images: { input: { clientId: number; outletId: number; receiptId: string }; answer: Deferred<string> }[];
let files: { input: { fileName: string; text: string }; answer: Deferred<void> }[];

const page = tenantReceiptDataMachine.provide({
  actors: {
    tenantReceiptList: tenantReceiptListMachine.provide({
      actors: {
        fetchPage: fromPromise<Answer, TenantReceiptListQuery>(({ input }) => {
          const answer = deferred<Answer>();
          loads.push({ query: input, answer });
          return answer.promise;
        }),
      },
    }),
    fetchImage: fromPromise<string, { clientId: number; outletId: number; receiptId: string }>(({ input }) => {
      const answer = deferred<string>();
      images.push({ input, answer });
      return answer.promise;
    }),
    exportCsv: fromPromise<void, { fileName: string; text: string }>(({ input }) => {
      const answer = deferred<void>();
      files.push({ input, answer });
      return answer.promise;
    }),
  },
});

/** The page beside a header, as the app's actor system runs them. */
function appWith(headerLogic: ReturnType<typeof headerWith>) {
  return setup({ actors: { header: headerLogic, page } }).createMachine({
    invoke: [
      { id: 'header', src: 'header', systemId: 'filterHeader' },
      { id: 'page', src: 'page' },
    ],
  });
}

let actor: Actor<ReturnType<typeof appWith>>;
let notices: string[];
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const pageActor = () => childOf(actor.getSnapshot(), 'page');
const headerActor = () => childOf(actor.getSnapshot(), 'header');
const snapshot = () => pageActor().getSnapshot();
function listActor() {
  const list = snapshot().children.list;
  if (!list) throw new Error('no list');
  return list;
}
const listSnapshot = () => listActor().getSnapshot();

function last<T>(items: T[]): T {
  const found = items.at(-1);
  if (!found) throw new Error('nothing yet');
  return found;
}

async function start(filters: CommittedFilters): Promise<void> {
  loads = [];
  images = [];
  files = [];
  notices = [];
  actor = createActor(appWith(headerWith(filters)));
  actor.start();
  await settle();
  const collect = (notice: Notice) => notices.push(notice.message);
  pageActor().on('notify', collect);
  listActor().on('notify', collect);
}

afterEach(() => actor?.stop());

/* ---------------------------------------------------------------- the model */

type ModelEvent = {
  type:
    | 'chooseOutlet'
    | 'answer'
    | 'answerNothing'
    | 'fail'
    | 'retry'
    | 'newDays'
    | 'sortByAmount'
    | 'nextPage'
    | 'openImage'
    | 'imageArrives'
    | 'imageFails'
    | 'closeImage'
    | 'exportCsv'
    | 'csvSaved'
    | 'csvFails';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'tenantReceiptDataModel',
    initial: 'waiting',
    states: {
      /** The header has no outlet yet. */
      waiting: { on: { chooseOutlet: 'loading' } },
      loading: { on: { answer: 'loaded', answerNothing: 'empty', fail: 'failure' } },
      failure: { on: { retry: 'loading' } },
      empty: { on: { newDays: 'loading' } },
      loaded: {
        on: { sortByAmount: 'loading', nextPage: 'loading', openImage: 'imageLoading', exportCsv: 'exporting' },
      },
      imageLoading: { on: { imageArrives: 'imageOpen', imageFails: 'imageFailed', closeImage: 'loaded' } },
      imageOpen: { on: { closeImage: 'loaded' } },
      /** The image could not be read: the dialog closed, the toast. */
      imageFailed: { on: { openImage: 'imageLoading' } },
      exporting: { on: { csvSaved: 'exported', csvFails: 'csvFailed' } },
      exported: {},
      csvFailed: {},
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

/** The query the test expects the list to ask. */
let expected: TenantReceiptListQuery;
const OTHER_RECEIPT = 'K-9999';

const expectNothingToShow = () => {
  expect(snapshot().context.shown).toBeUndefined();
  expect(snapshot().can({ type: 'csv.export' })).toBe(false);
  expect(snapshot().can({ type: 'image.open', receiptId: 'K-1001' })).toBe(false);
};

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    waiting: () => {
      expect(loads).toEqual([]);
      expect(snapshot().context.filters).toBeUndefined();
      expect(listSnapshot().matches('idle')).toBe(true);
      expectNothingToShow();
    },
    loading: () => {
      expect(listSnapshot().hasTag('loading')).toBe(true);
      expect(last(loads).query).toEqual(expected);
      expectNothingToShow();
    },
    failure: () => {
      expect(listSnapshot().matches('failure')).toBe(true);
      expect(notices.at(-1)).toBe('Receipt data fetching error occurs. Please try again later.');
      expect(listSnapshot().can({ type: 'list.retry' })).toBe(true);
      expectNothingToShow();
    },
    empty: () => {
      expect(listSnapshot().matches('empty')).toBe(true);
      expect(listSnapshot().context.total).toBe(0);
      expectNothingToShow();
    },
    loaded: () => {
      expect(listSnapshot().matches('loaded')).toBe(true);
      expect(snapshot().context.shown).toEqual({ rows: ROWS, page: expected.page });
      expect(snapshot().context.currency).toBe('SGD');
      expect(snapshot().matches({ image: 'closed', csv: 'idle' })).toBe(true);
      expect(snapshot().context.image).toBeUndefined();
      expect(snapshot().can({ type: 'csv.export' })).toBe(true);
      expect(snapshot().can({ type: 'image.open', receiptId: 'K-1001' })).toBe(true);
      expect(snapshot().can({ type: 'image.open', receiptId: OTHER_RECEIPT })).toBe(false);
    },
    imageLoading: () => {
      expect(snapshot().hasTag('imageLoading')).toBe(true);
      expect(snapshot().context.image).toEqual({ receiptId: '1732450000', src: undefined });
      expect(last(images).input).toEqual({ clientId: 3, outletId: 12, receiptId: '1732450000' });
    },
    imageOpen: () => {
      expect(snapshot().matches({ image: 'open' })).toBe(true);
      expect(snapshot().hasTag('imageLoading')).toBe(false);
      expect(snapshot().context.image).toEqual({ receiptId: '1732450000', src: IMAGE });
    },
    imageFailed: () => {
      expect(snapshot().matches({ image: 'closed' })).toBe(true);
      expect(snapshot().context.image).toBeUndefined();
      expect(notices.at(-1)).toBe('Receipt image fetching error occurs. Please try again later.');
    },
    exporting: () => {
      expect(snapshot().hasTag('csvExporting')).toBe(true);
      expect(snapshot().can({ type: 'csv.export' })).toBe(false);
      expect(last(files).input).toEqual({
        fileName: `receipt_data_12_2026-11-19_2026-11-25_page_${expected.page}.csv`,
        text:
          '\uFEFFReceipt ID,Datetime,Total Amount,Receipt Status,Currency\r\n' +
          'K-1001,2026-11-24 12:30:00,1234.5,Closed,SGD\r\n' +
          'no receipt id,2026-11-23 09:00:05,-3,Void,SGD\r\n',
      });
    },
    exported: () => {
      expect(snapshot().matches({ csv: 'idle' })).toBe(true);
      expect(notices.filter((notice) => notice.startsWith('CSV export'))).toEqual([]);
      expect(snapshot().can({ type: 'csv.export' })).toBe(true);
    },
    csvFailed: () => {
      expect(snapshot().matches({ csv: 'idle' })).toBe(true);
      expect(notices.at(-1)).toBe('CSV export error occurs. Please try again later.');
    },
  },
  events: {
    chooseOutlet: async () => {
      headerActor().send({ type: 'filters.set', filters: FILTERS });
      await settle();
    },
    answer: async () => {
      last(loads).answer.resolve({ rows: ROWS, total: TOTAL });
      await settle();
    },
    answerNothing: async () => {
      last(loads).answer.resolve({ rows: [], total: 0 });
      await settle();
    },
    fail: async () => {
      last(loads).answer.reject(new Error('500'));
      await settle();
    },
    retry: async () => {
      listActor().send({ type: 'list.retry' });
      await settle();
    },
    newDays: async () => {
      const dateRange = { start: '2026-10-01', end: '2026-10-31' };
      expected = {
        ...expected,
        page: 1,
        filters: { ...expected.filters, startTime: '2026-10-01', endTime: '2026-10-31' },
      };
      headerActor().send({ type: 'filters.set', filters: { ...FILTERS, dateRange } });
      await settle();
    },
    sortByAmount: async () => {
      const again = expected.sortColumn === 'total_amount' && expected.order === 'desc';
      expected = { ...expected, sortColumn: 'total_amount', order: again ? 'asc' : 'desc', page: 1 };
      listActor().send({ type: 'list.sort', column: 'total_amount' });
      await settle();
    },
    nextPage: async () => {
      expected = { ...expected, page: expected.page + 1 };
      listActor().send({ type: 'list.page', page: expected.page });
      await settle();
    },
    openImage: async () => {
      const asked = images.length;
      pageActor().send({ type: 'image.open', receiptId: OTHER_RECEIPT });
      expect(images).toHaveLength(asked);
      pageActor().send({ type: 'image.open', receiptId: '1732450000' });
      await settle();
    },
    imageArrives: async () => {
      last(images).answer.resolve(IMAGE);
      await settle();
    },
    imageFails: async () => {
      last(images).answer.reject(new Error('404'));
      await settle();
    },
    closeImage: async () => {
      pageActor().send({ type: 'image.close' });
      await settle();
    },
    exportCsv: async () => {
      pageActor().send({ type: 'csv.export' });
      await settle();
    },
    csvSaved: async () => {
      last(files).answer.resolve();
      await settle();
    },
    csvFails: async () => {
      last(files).answer.reject(new Error('no disk'));
      await settle();
    },
  },
};

describe('tenantReceiptDataMachine (model)', () => {
  beforeEach(async () => {
    expected = {
      filters: { clientId: 3, outletId: 12, startTime: '2026-11-19', endTime: '2026-11-25' },
      search: '',
      sortColumn: 'datetime',
      order: 'desc',
      page: 1,
      rowsPerPage: 10,
    };
    await start({ ...FILTERS, outlet: undefined });
  });
  describeModelCoverage(model, params, {
    states: [
      'waiting',
      'loading',
      'failure',
      'empty',
      'loaded',
      'imageLoading',
      'imageOpen',
      'imageFailed',
      'exporting',
      'exported',
      'csvFailed',
    ],
    transitions: 17,
  });
});

/* ---------------------------------------------------------------- details */

describe('tenantReceiptDataMachine details', () => {
  it('asks again only for a new client, outlet or days, never for the header’s other filters', async () => {
    await start(FILTERS);
    expect(loads.map((load) => load.query.filters)).toEqual([
      { clientId: 3, outletId: 12, startTime: '2026-11-19', endTime: '2026-11-25' },
    ]);
    headerActor().send({ type: 'filters.set', filters: { ...FILTERS, mallIds: [1, 2], hours: { from: 8, to: 20 } } });
    await settle();
    expect(loads).toHaveLength(1);
    headerActor().send({ type: 'filters.set', filters: { ...FILTERS, outlet: BAKERY.id } });
    await settle();
    headerActor().send({ type: 'filters.set', filters: { ...FILTERS, clientId: 4 } });
    await settle();
    expect(loads.slice(1).map((load) => load.query.filters)).toEqual([
      { clientId: 3, outletId: 13, startTime: '2026-11-19', endTime: '2026-11-25' },
      { clientId: 4, outletId: 12, startTime: '2026-11-19', endTime: '2026-11-25' },
    ]);
    // A superseded call is aborted by the list; the last one is the one answered.
    expect(loads.slice(1).map((load) => load.query.page)).toEqual([1, 1]);
  });

  it('opens the image of a receipt that has one, never of a receipt without', async () => {
    await start(FILTERS);
    const [first, second] = ROWS;
    if (!first || !second) throw new Error('two rows');
    last(loads).answer.resolve({ rows: [first, { ...second, has_image: false }], total: 2 });
    await settle();
    expect(snapshot().can({ type: 'image.open', receiptId: first.receipt_id })).toBe(true);
    expect(snapshot().can({ type: 'image.open', receiptId: second.receipt_id })).toBe(false);
  });

  it('without an outlet (none chosen, or All Outlets) it has no filters, and keeps the rows hidden', async () => {
    await start(FILTERS);
    last(loads).answer.resolve({ rows: ROWS, total: 2 });
    await settle();
    expect(snapshot().context.shown?.rows).toEqual(ROWS);
    headerActor().send({ type: 'filters.set', filters: { ...FILTERS, outlet: 'all' } });
    await settle();
    expect(snapshot().context.filters).toBeUndefined();
    expect(snapshot().context.shown).toBeUndefined();
    expect(snapshot().can({ type: 'csv.export' })).toBe(false);
    expect(loads).toHaveLength(1);
  });

  it('takes the outlet’s currency, and none of an outlet the header does not list', () => {
    const event = { filters: FILTERS, outlets: [KOPI, { ...BAKERY, currency: 'MYR' }] };
    expect(tenantReceiptFiltersOf(event)).toEqual({
      filters: { clientId: 3, outletId: 12, startTime: '2026-11-19', endTime: '2026-11-25' },
      currency: 'SGD',
    });
    expect(tenantReceiptFiltersOf({ ...event, filters: { ...FILTERS, outlet: 13 } })?.currency).toBe('MYR');
    expect(tenantReceiptFiltersOf({ ...event, outlets: [] })?.currency).toBeUndefined();
    expect(tenantReceiptFiltersOf({ ...event, filters: { ...FILTERS, clientId: undefined } })).toBeUndefined();
    expect(tenantReceiptFiltersOf({ ...event, filters: { ...FILTERS, outlet: undefined } })).toBeUndefined();
  });

  it('writes the CSV of the rows shown without a currency column when the currency is not known', () => {
    const filters = { clientId: 3, outletId: 12, startTime: '2026-11-19', endTime: '2026-11-25' };
    expect(tenantReceiptsCsv(filters, { rows: ROWS.slice(0, 1), page: 2 }, undefined)).toEqual({
      fileName: 'receipt_data_12_2026-11-19_2026-11-25_page_2.csv',
      text: '\uFEFFReceipt ID,Datetime,Total Amount,Receipt Status\r\nK-1001,2026-11-24 12:30:00,1234.5,Closed\r\n',
    });
  });
});

describe('loadTenantReceipts', () => {
  it('asks for the outlet’s page and sort, and reads the count from the summary', async () => {
    const asked: URL[] = [];
    const client = createApiClient(
      async (request) => {
        asked.push(new URL(request.url));
        return new Response(JSON.stringify({ data: ROWS, summary: [{ total: 42 }] }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      },
      { baseUrl: 'http://localhost' },
    );
    setPermissionsList(['/api/tenant/receiptData::Read']);
    try {
      const signal = new AbortController().signal;
      const query: TenantReceiptListQuery = {
        filters: { clientId: 3, outletId: 12, startTime: '2026-11-19', endTime: '2026-11-25' },
        search: '',
        sortColumn: 'total_amount',
        order: 'asc',
        page: 3,
        rowsPerPage: 20,
      };
      expect(await loadTenantReceipts(query, { signal, client })).toEqual({ rows: ROWS, total: 42 });
      await expect(loadTenantReceipts({ ...query, rowsPerPage: 15 }, { signal, client })).rejects.toThrow(/15 rows/);
    } finally {
      clearSession();
    }
    expect(asked.map((url) => `${url.pathname}?${url.searchParams}`)).toEqual([
      '/api/tenant/receiptData?client_id=3&id=12&startTime=2026-11-19&endTime=2026-11-25&page=3&rowsPerPage=20&sortColumn=total_amount&orderByMethod=asc',
    ]);
  });
});
