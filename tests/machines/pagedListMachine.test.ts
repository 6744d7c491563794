import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, fromCallback, type SnapshotFrom, setup } from 'xstate';
import { errorOccurs } from '../../src/domain/messages';
import { lastPage } from '../../src/domain/paging';
import {
  createPagedListMachine,
  type PagedListAnswer,
  type PagedListNotice,
  type PagedListQuery,
} from '../../src/machines/factories/pagedListMachine';
import { type Deferred, deferred } from '../support/deferred';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the paged list factory with a fake loader whose answers the test gives: 25 rows
 * (3 pages of 10, 2 pages of 20). The list runs inside a parent that also runs a fake filter header
 * (systemId 'filterHeader') recording what it is told, as the app's actor system does.
 */

type Row = { id: string; amount: number };
type Filters = { mallId: number };
type Sort = 'datetime' | 'amount';
type Query = PagedListQuery<Filters, Sort>;

const TOTAL = 25;
const ROWS: Row[] = Array.from({ length: TOTAL }, (_, index) => ({ id: `r${index + 1}`, amount: index + 1 }));
const ERROR_TEXT = 'Receipts fetching error occurs. Please try again later.';

function pageOf(query: Query): PagedListAnswer<Row> {
  const from = (query.page - 1) * query.rowsPerPage;
  return { rows: ROWS.slice(from, from + query.rowsPerPage), total: TOTAL };
}

interface Load {
  query: Query;
  signal: AbortSignal;
  answer: Deferred<PagedListAnswer<Row>>;
  settled: boolean;
}

let loads: Load[];

const listMachine = createPagedListMachine<Row, Filters, Sort>({
  id: 'testList',
  what: 'Receipts fetching',
  load: (query, { signal }) => {
    const answer = deferred<PagedListAnswer<Row>>();
    loads.push({ query, signal, answer, settled: false });
    return answer.promise;
  },
  rowKey: (row) => row.id,
  sortColumns: ['datetime', 'amount'],
  defaultSort: { column: 'datetime', order: 'desc' },
  rowsPerPage: 10,
  rowsPerPageOptions: [10, 20, 50],
});

let headerEvents: string[];

const fakeHeader = fromCallback<{ type: string }>(({ receive }) => {
  receive((event) => headerEvents.push(event.type));
});

const pageMachine = setup({
  types: {
    events: {} as { type: 'page.close' },
    children: {} as { list: 'list'; header: 'filterHeader' },
  },
  actors: { filterHeader: fakeHeader, list: listMachine },
}).createMachine({
  id: 'page',
  invoke: { id: 'header', src: 'filterHeader', systemId: 'filterHeader' },
  initial: 'open',
  states: {
    open: {
      invoke: { id: 'list', src: 'list', input: {} },
      on: { 'page.close': 'closed' },
    },
    closed: {},
  },
});

let page: Actor<typeof pageMachine>;
let notices: PagedListNotice[];

function start(): void {
  loads = [];
  headerEvents = [];
  notices = [];
  page = createActor(pageMachine);
  page.start();
  list().on('notify', (notice) => notices.push(notice));
}

function list() {
  const ref = page.getSnapshot().children.list;
  if (!ref) throw new Error('the list is not running');
  return ref;
}

const snapshot = () => list().getSnapshot();
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const lastLoad = (): Load => {
  const load = loads.at(-1);
  if (!load) throw new Error('nothing was loaded');
  return load;
};

/** The server answers the pending load (the page of the query unless told otherwise). */
async function answerLast(answer?: PagedListAnswer<Row>): Promise<void> {
  const load = lastLoad();
  load.settled = true;
  load.answer.resolve(answer ?? pageOf(load.query));
  await flush();
}

async function failLast(): Promise<void> {
  const load = lastLoad();
  load.settled = true;
  load.answer.reject(new Error('500'));
  await flush();
}

/** Every load but the last was answered or aborted. */
function expectSupersededAborted(): void {
  for (const load of loads.slice(0, -1)) expect(load.settled || load.signal.aborted).toBe(true);
}

/** The header was told page.loading and page.loaded in turns; `pending` loadings have no page.loaded yet. */
function expectHeaderPairs(pending: 0 | 1): void {
  headerEvents.forEach((type, index) => {
    expect(type).toBe(index % 2 === 0 ? 'page.loading' : 'page.loaded');
  });
  expect(headerEvents.length % 2).toBe(pending);
}

afterEach(() => page.stop());

/* ---------------------------------------------------------------- the model */

type ModelEvent = {
  type:
    | 'filters'
    | 'search'
    | 'sort'
    | 'rowsPerPage'
    | 'page'
    | 'resolve'
    | 'resolveEmpty'
    | 'reject'
    | 'retry'
    | 'refresh'
    | 'select'
    | 'selectAll'
    | 'clearSelection';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'listModel',
    initial: 'idle',
    states: {
      idle: { on: { filters: 'loading' } },
      loading: {
        on: {
          resolve: 'loaded',
          resolveEmpty: 'empty',
          reject: 'failure',
          filters: 'loading',
          search: 'loading',
          sort: 'loading',
          rowsPerPage: 'loading',
        },
      },
      loaded: {
        on: {
          filters: 'loading',
          search: 'loading',
          sort: 'loading',
          rowsPerPage: 'loading',
          page: 'loading',
          refresh: 'loading',
          select: 'loaded',
          selectAll: 'loaded',
          clearSelection: 'loaded',
        },
      },
      empty: { on: { filters: 'loading', search: 'loading', refresh: 'loading' } },
      failure: { on: { retry: 'loading', refresh: 'loading', filters: 'loading', sort: 'loading' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

/** What the list should ask and show, kept by the test's events. */
let expected: Query;
let expectedSelection: string[];

function resetExpected(): void {
  expected = {
    filters: { mallId: 0 },
    search: '',
    sortColumn: 'datetime',
    order: 'desc',
    page: 1,
    rowsPerPage: 10,
  };
  expectedSelection = [];
}

const settled = () => {
  expect(snapshot().hasTag('loading')).toBe(false);
  expectHeaderPairs(0);
  expectSupersededAborted();
};

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    idle: () => {
      expect(snapshot().matches('idle')).toBe(true);
      expect(loads).toEqual([]);
      expect(headerEvents).toEqual([]);
      expect(snapshot().can({ type: 'list.search', text: 'x' })).toBe(false);
      expect(snapshot().can({ type: 'list.sort', column: 'amount' })).toBe(false);
    },
    loading: () => {
      expect(snapshot().matches('loading')).toBe(true);
      expect(snapshot().hasTag('loading')).toBe(true);
      expectHeaderPairs(1);
      expect(lastLoad().query).toEqual(expected);
      expect(lastLoad().signal.aborted).toBe(false);
      // Every superseded load was aborted.
      expectSupersededAborted();
      expect(snapshot().can({ type: 'list.page', page: 2 })).toBe(false);
      expect(snapshot().can({ type: 'list.refresh' })).toBe(false);
    },
    loaded: () => {
      expect(snapshot().matches('loaded')).toBe(true);
      expect(snapshot().context.rows).toEqual(pageOf(expected).rows);
      expect(snapshot().context.total).toBe(TOTAL);
      expect(snapshot().context.selected).toEqual(expectedSelection);
      const last = lastPage(TOTAL, expected.rowsPerPage);
      expect(snapshot().can({ type: 'list.page', page: last + 1 })).toBe(false);
      expect(snapshot().can({ type: 'list.page', page: 0 })).toBe(false);
      settled();
    },
    empty: () => {
      expect(snapshot().matches('empty')).toBe(true);
      expect(snapshot().context.rows).toEqual([]);
      expect(snapshot().context.total).toBe(0);
      expect(snapshot().can({ type: 'list.page', page: 2 })).toBe(false);
      settled();
    },
    failure: () => {
      expect(snapshot().matches('failure')).toBe(true);
      // No stale rows, no selection of them.
      expect(snapshot().context.rows).toEqual([]);
      expect(snapshot().context.total).toBe(0);
      expect(snapshot().context.selected).toEqual([]);
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: ERROR_TEXT, timeout: 5000 });
      // A failed list loads again on a retry or a refresh alike.
      expect(snapshot().can({ type: 'list.refresh' })).toBe(true);
      expect(snapshot().can({ type: 'list.retry' })).toBe(true);
      settled();
    },
  },
  events: {
    filters: () => {
      const filters = { mallId: expected.filters.mallId + 1 };
      expected = { ...expected, filters, page: 1 };
      list().send({ type: 'list.filters', filters });
    },
    search: () => {
      const search = expected.search === 'r1' ? '' : 'r1';
      expected = { ...expected, search, page: 1 };
      list().send({ type: 'list.search', text: ` ${search} ` });
    },
    sort: () => {
      // The amount column: descending when new, then toggled.
      const order = expected.sortColumn === 'amount' && expected.order === 'desc' ? 'asc' : 'desc';
      expected = { ...expected, sortColumn: 'amount', order, page: 1 };
      list().send({ type: 'list.sort', column: 'amount' });
    },
    rowsPerPage: () => {
      const rowsPerPage = expected.rowsPerPage === 10 ? 20 : 10;
      expected = { ...expected, rowsPerPage, page: 1 };
      list().send({ type: 'list.rowsPerPage', rowsPerPage });
    },
    page: () => {
      const next = (expected.page % lastPage(TOTAL, expected.rowsPerPage)) + 1;
      expected = { ...expected, page: next };
      list().send({ type: 'list.page', page: next });
    },
    resolve: async () => {
      expectedSelection = [];
      await answerLast();
    },
    resolveEmpty: async () => {
      expectedSelection = [];
      await answerLast({ rows: [], total: 0 });
    },
    reject: () => failLast(),
    retry: () => list().send({ type: 'list.retry' }),
    refresh: () => list().send({ type: 'list.refresh' }),
    select: () => {
      const key = snapshot().context.rows[1]?.id ?? '';
      expectedSelection = [...expectedSelection.filter((selected) => selected !== key), key];
      list().send({ type: 'list.select', key, selected: true });
    },
    selectAll: () => {
      expectedSelection = pageOf(expected).rows.map((row) => row.id);
      list().send({ type: 'list.selectAll' });
    },
    clearSelection: () => {
      expectedSelection = [];
      list().send({ type: 'list.clearSelection' });
    },
  },
};

describe('pagedListMachine (model)', () => {
  beforeEach(() => {
    resetExpected();
    start();
  });
  describeModelCoverage(model, params, {
    states: ['idle', 'loading', 'loaded', 'empty', 'failure'],
    transitions: 24,
  });
});

/* ---------------------------------------------------------------- details */

async function loadedList(): Promise<void> {
  list().send({ type: 'list.filters', filters: { mallId: 1 } });
  await answerLast();
  expect(snapshot().matches('loaded')).toBe(true);
}

describe('pagedListMachine details', () => {
  beforeEach(() => start());

  it('pages only within 1..last page', async () => {
    await loadedList();
    expect(snapshot().can({ type: 'list.page', page: 0 })).toBe(false);
    expect(snapshot().can({ type: 'list.page', page: -1 })).toBe(false);
    expect(snapshot().can({ type: 'list.page', page: 1 })).toBe(false);
    expect(snapshot().can({ type: 'list.page', page: 2.5 })).toBe(false);
    expect(snapshot().can({ type: 'list.page', page: 3 })).toBe(true);
    expect(snapshot().can({ type: 'list.page', page: 4 })).toBe(false);
    list().send({ type: 'list.page', page: 4 });
    expect(snapshot().matches('loaded')).toBe(true);
    expect(loads).toHaveLength(1);
    list().send({ type: 'list.page', page: 3 });
    expect(lastLoad().query.page).toBe(3);
  });

  it('sorts by whitelisted columns only: descending first, then toggled', async () => {
    await loadedList();
    expect(snapshot().can({ type: 'list.sort', column: 'password' })).toBe(false);
    list().send({ type: 'list.sort', column: 'password' });
    expect(snapshot().matches('loaded')).toBe(true);
    expect(loads).toHaveLength(1);

    list().send({ type: 'list.sort', column: 'datetime' });
    expect(lastLoad().query).toMatchObject({ sortColumn: 'datetime', order: 'asc', page: 1 });
    list().send({ type: 'list.sort', column: 'amount' });
    expect(lastLoad().query).toMatchObject({ sortColumn: 'amount', order: 'desc' });
    list().send({ type: 'list.sort', column: 'amount' });
    expect(lastLoad().query).toMatchObject({ sortColumn: 'amount', order: 'asc' });
    list().send({ type: 'list.sort', column: 'amount' });
    expect(lastLoad().query).toMatchObject({ sortColumn: 'amount', order: 'desc' });
  });

  it('sorts the way a sort event names, whatever the column was', async () => {
    await loadedList();
    list().send({ type: 'list.sort', column: 'amount', order: 'asc' });
    expect(lastLoad().query).toMatchObject({ sortColumn: 'amount', order: 'asc', page: 1 });
    list().send({ type: 'list.sort', column: 'amount', order: 'asc' });
    expect(lastLoad().query).toMatchObject({ sortColumn: 'amount', order: 'asc' });
  });

  it("keeps the answer's summary beside the rows, and none after a failure", async () => {
    await loadedList();
    expect(snapshot().context.summary).toBeUndefined();
    list().send({ type: 'list.search', text: 'r1' });
    await answerLast({ ...pageOf(lastLoad().query), summary: undefined });
    expect(snapshot().context.summary).toBeUndefined();
    list().send({ type: 'list.search', text: 'r2' });
    await failLast();
    expect(snapshot().context.summary).toBeUndefined();
    expect(snapshot().context.rows).toEqual([]);
  });

  it('offers only the allowed rows per page, back to page 1', async () => {
    await loadedList();
    list().send({ type: 'list.page', page: 2 });
    await answerLast();
    expect(snapshot().can({ type: 'list.rowsPerPage', rowsPerPage: 15 })).toBe(false);
    expect(snapshot().can({ type: 'list.rowsPerPage', rowsPerPage: 10 })).toBe(false);
    list().send({ type: 'list.rowsPerPage', rowsPerPage: 50 });
    expect(lastLoad().query).toMatchObject({ rowsPerPage: 50, page: 1 });
  });

  it('clears the selection when the rows change, and selects only rows it shows', async () => {
    await loadedList();
    expect(snapshot().can({ type: 'list.select', key: 'r25', selected: true })).toBe(false);
    list().send({ type: 'list.select', key: 'r2', selected: true });
    list().send({ type: 'list.select', key: 'r3', selected: true });
    list().send({ type: 'list.select', key: 'r2', selected: false });
    expect(snapshot().context.selected).toEqual(['r3']);
    list().send({ type: 'list.page', page: 2 });
    await answerLast();
    expect(snapshot().context.selected).toEqual([]);

    list().send({ type: 'list.selectAll' });
    expect(snapshot().context.selected).toEqual(ROWS.slice(10, 20).map((row) => row.id));
    list().send({ type: 'list.search', text: 'r1' });
    await failLast();
    expect(snapshot().context.selected).toEqual([]);
  });

  it('aborts a superseded load and ignores its late answer', async () => {
    list().send({ type: 'list.filters', filters: { mallId: 1 } });
    const first = lastLoad();
    list().send({ type: 'list.filters', filters: { mallId: 2 } });
    expect(first.signal.aborted).toBe(true);
    first.answer.resolve({ rows: ROWS.slice(0, 1), total: 1 });
    await flush();
    expect(snapshot().matches('loading')).toBe(true);
    expect(lastLoad().query.filters).toEqual({ mallId: 2 });
  });

  it('keeps the previous rows while loading, tagged for skeleton cells', async () => {
    await loadedList();
    list().send({ type: 'list.page', page: 2 });
    expect(snapshot().hasTag('loading')).toBe(true);
    expect(snapshot().context.rows).toEqual(ROWS.slice(0, 10));
  });

  it('asks the last page when the rows went away under a later page', async () => {
    await loadedList();
    list().send({ type: 'list.page', page: 3 });
    await answerLast({ rows: [], total: 12 });
    expect(snapshot().matches('loading')).toBe(true);
    expect(lastLoad().query.page).toBe(2);
    expectHeaderPairs(1);
  });

  it('refreshes the same query: page, sort, search and rows per page kept, the selection cleared', async () => {
    await loadedList();
    list().send({ type: 'list.rowsPerPage', rowsPerPage: 20 });
    await answerLast();
    list().send({ type: 'list.sort', column: 'amount' });
    await answerLast();
    list().send({ type: 'list.page', page: 2 });
    await answerLast();
    list().send({ type: 'list.select', key: 'r22', selected: true });
    const before = lastLoad().query;
    expect(snapshot().can({ type: 'list.refresh' })).toBe(true);
    list().send({ type: 'list.refresh' });
    expect(loads).toHaveLength(5);
    expect(lastLoad().query).toEqual(before);
    expect(lastLoad().query).toMatchObject({ page: 2, rowsPerPage: 20, sortColumn: 'amount', order: 'desc' });
    // The rows shown stay while the refresh loads, tagged for skeleton cells.
    expect(snapshot().hasTag('loading')).toBe(true);
    expect(snapshot().context.rows).toEqual(ROWS.slice(20, 25));
    await answerLast({ rows: ROWS.slice(20, 24), total: 24 });
    expect(snapshot().matches('loaded')).toBe(true);
    expect(snapshot().context).toMatchObject({ rows: ROWS.slice(20, 24), total: 24, selected: [] });
  });

  it('refreshes an empty list and a failed one', async () => {
    list().send({ type: 'list.filters', filters: { mallId: 1 } });
    await answerLast({ rows: [], total: 0 });
    list().send({ type: 'list.refresh' });
    expect(loads).toHaveLength(2);
    await answerLast();
    expect(snapshot().matches('loaded')).toBe(true);
    list().send({ type: 'list.refresh' });
    await failLast();
    expect(snapshot().matches('failure')).toBe(true);
    list().send({ type: 'list.refresh' });
    expect(snapshot().matches('loading')).toBe(true);
    expect(loads).toHaveLength(4);
  });

  it('sends the exact failure toast each time', async () => {
    list().send({ type: 'list.filters', filters: { mallId: 1 } });
    await failLast();
    list().send({ type: 'list.retry' });
    await failLast();
    expect(notices.map((notice) => notice.message)).toEqual([ERROR_TEXT, ERROR_TEXT]);
    expect(errorOccurs('Outlets')).toBe('Outlets error occurs. Please try again later.');
  });

  it('gives the header page.loaded when the list is stopped mid-load', () => {
    list().send({ type: 'list.filters', filters: { mallId: 1 } });
    const load = lastLoad();
    expect(headerEvents).toEqual(['page.loading']);
    page.send({ type: 'page.close' });
    expect(page.getSnapshot().children.list).toBeUndefined();
    expect(headerEvents).toEqual(['page.loading', 'page.loaded']);
    expect(load.signal.aborted).toBe(true);
  });

  it('gives the header one pair a load, superseded loads included', async () => {
    list().send({ type: 'list.filters', filters: { mallId: 1 } });
    list().send({ type: 'list.search', text: 'r1' });
    await answerLast();
    expect(headerEvents).toEqual(['page.loading', 'page.loaded', 'page.loading', 'page.loaded']);
  });

  it('loads at once with filters given as input, and needs no filter header', async () => {
    const alone = createActor(listMachine, { input: { filters: { mallId: 7 } } }).start();
    expect(alone.getSnapshot().matches('loading')).toBe(true);
    expect(lastLoad().query.filters).toEqual({ mallId: 7 });
    await answerLast({ rows: [], total: 0 });
    expect(alone.getSnapshot().matches('empty')).toBe(true);
    alone.stop();
    expect(headerEvents).toEqual([]);
  });
});
