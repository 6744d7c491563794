import { createTestModel, type TestParam } from '@xstate/test';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, type ActorRefFrom, assign, createActor, type SnapshotFrom, setup } from 'xstate';
import type { OutletCodeRow } from '../../src/api/outletCodes';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import { refusalAt } from '../../src/domain/outletCodes';
import {
  type createOutletCodeEditorMachine,
  createOutletCodeMachine,
  refusalOf,
} from '../../src/machines/outletCodeMachine';
import { childOf } from './childOf';
import { describeModelCoverage } from './modelCoverage';
import { errorBody, type FakeRequest, fakeNetwork, flush } from './settingsNetwork';

/*
 * Model-based test of the Outlet Code page machine: its paged list of the header's client 3 and malls 1 and 2
 * (searchable, sortable, 45 outlets: 3 pages of 20), and the editor of the rows shown over an injected network.
 * Kopi Corner (12, Central Mall) has code K-12, Shoe Lane (13, Harbour Mall) none; the test types Shoe Lane's code.
 * While a code is changed the page holds: the header is locked (a stand-in header counts page.loading/loaded), the
 * navigation guard holds the unsaved changes, and search, sort and paging wait. 'Save Successfully.' /
 * 'Save Failed.'; a code the server refuses (400 naming data[0].outlet_code) shows the reason at Shoe Lane's field.
 */

const PATH = '/api/mall_report/outletCode';
const FILTERS: CommittedFilters = {
  clientId: 3,
  mallIds: [1, 2],
  outlet: undefined,
  dateRange: { start: '2026-11-01', end: '2026-11-07' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: undefined,
};
const REFUSED =
  'data[0].outlet_code: "S-1" is already the code of Kopi Corner in Central Mall; a code is unique within its mall.';

/** A stand-in filter header: its committed filters, and how many page fetches lock it. */
const headerWith = (filters: CommittedFilters) =>
  setup({
    types: {
      context: {} as { filters: CommittedFilters; outlets: []; today: string; locks: number },
      events: {} as
        | { type: 'filters.set'; filters: CommittedFilters }
        | { type: 'page.loading' }
        | { type: 'page.loaded' },
    },
  }).createMachine({
    context: { filters, outlets: [], today: '2026-11-25', locks: 0 },
    on: {
      'filters.set': { actions: assign(({ event }) => ({ filters: event.filters })) },
      'page.loading': { actions: assign(({ context }) => ({ locks: context.locks + 1 })) },
      'page.loaded': { actions: assign(({ context }) => ({ locks: context.locks - 1 })) },
    },
  });
const header = headerWith(FILTERS);

/** A stand-in navigation guard: whether the page holds unsaved changes. */
const navigation = setup({
  types: {
    context: {} as { unsaved: boolean },
    events: {} as { type: 'page.unsavedChanges'; unsaved: boolean },
  },
}).createMachine({
  context: { unsaved: false },
  on: { 'page.unsavedChanges': { actions: assign(({ event }) => ({ unsaved: event.unsaved })) } },
});

const net = fakeNetwork();
setPermissionsList([`${PATH}::Read`, `${PATH}::Update`]);
const page = createOutletCodeMachine(net.client);
/** The page beside a header and a navigation guard, as the app's actor system runs them. */
const appWith = (headerLogic: typeof header) =>
  setup({ actors: { header: headerLogic, navigation, page } }).createMachine({
    invoke: [
      { id: 'header', src: 'header', systemId: 'filterHeader' },
      { id: 'navigation', src: 'navigation', systemId: 'navigation' },
      { id: 'page', src: 'page' },
    ],
  });
const app = appWith(header);

type EditorRef = ActorRefFrom<ReturnType<typeof createOutletCodeEditorMachine>>;

let actor: Actor<typeof app>;
let notices: Notice[];
let watched: WeakSet<object>;
/** What the list asks: its page, sort and search. */
let asked: { page: number; sortColumn: string; order: string; search: string };
/** Shoe Lane's code as the server has it, and as typed. */
let stored: string | null;
let typed: string;
let typings: number;

const pageActor = () => childOf(actor.getSnapshot(), 'page');
const headerActor = () => childOf(actor.getSnapshot(), 'header');
const navigationActor = () => childOf(actor.getSnapshot(), 'navigation');
const listActor = () => {
  const list = pageActor().getSnapshot().children.list;
  if (!list) throw new Error('no list');
  return list;
};

function editor(): EditorRef {
  const child = pageActor().getSnapshot().children.editor;
  if (!child) throw new Error('no editor');
  if (!watched.has(child)) {
    watched.add(child);
    child.on('notify', (notice) => notices.push(notice));
  }
  return child;
}

function rows(): OutletCodeRow[] {
  return [
    { outlet_id: 12, outlet_name: 'Kopi Corner', mall_id: 1, mall_name: 'Central Mall', outlet_code: 'K-12' },
    { outlet_id: 13, outlet_name: 'Shoe Lane', mall_id: 2, mall_name: 'Harbour Mall', outlet_code: stored },
  ];
}

function start(): void {
  net.reset();
  notices = [];
  watched = new WeakSet();
  asked = { page: 1, sortColumn: 'mall_name', order: 'asc', search: '' };
  stored = null;
  typed = '';
  typings = 0;
  actor = createActor(app);
  actor.start();
  listActor().on('notify', (notice) => notices.push(notice));
}

afterEach(() => actor.stop());
afterAll(() => clearSession());

const held = () => pageActor().getSnapshot().hasTag('held');
const shoeLane = () =>
  editor()
    .getSnapshot()
    .context.draft?.rows.find((row) => row.outletId === 13);
const openGets = () => net.open().filter((request) => request.method === 'GET');

function expectQuery(request: FakeRequest): void {
  expect(request.query.getAll('mall_ids')).toEqual(['1', '2']);
  expect(Object.fromEntries([...request.query].filter(([name]) => name !== 'mall_ids'))).toEqual({
    client_id: '3',
    sortColumn: asked.sortColumn,
    orderByMethod: asked.order,
    page: String(asked.page),
    rowsPerPage: '20',
    ...(asked.search === '' ? {} : { searchText: asked.search }),
  });
}

/** A page that is not held: no lock on the header, nothing held at the guard, the list free to move. */
function expectFree(): void {
  expect(held()).toBe(false);
  expect(headerActor().getSnapshot().context.locks).toBe(0);
  expect(navigationActor().getSnapshot().context.unsaved).toBe(false);
}

/** A page holding changed codes: the header locked, the guard asking before leaving, no list event passed on. */
function expectHeld(): void {
  expect(held()).toBe(true);
  expect(headerActor().getSnapshot().context.locks).toBe(1);
  expect(navigationActor().getSnapshot().context.unsaved).toBe(true);
  expect(openGets()).toEqual([]);
}

type ModelEvent = {
  type:
    | 'resolveLoad'
    | 'resolveEmpty'
    | 'rejectLoad'
    | 'retry'
    | 'search'
    | 'sort'
    | 'nextPage'
    | 'type'
    | 'typeBack'
    | 'cancel'
    | 'save'
    | 'resolveSave'
    | 'rejectSave'
    | 'refuseSave';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'outletCodeModel',
    initial: 'loading',
    states: {
      loading: { on: { resolveLoad: 'clean', resolveEmpty: 'empty', rejectLoad: 'failure' } },
      failure: { on: { retry: 'loading' } },
      empty: { on: { search: 'loading' } },
      clean: { on: { type: 'dirty', search: 'loading', sort: 'loading', nextPage: 'loading' } },
      dirty: { on: { typeBack: 'clean', cancel: 'clean', save: 'saving', sort: 'dirty', nextPage: 'dirty' } },
      saving: { on: { resolveSave: 'saved', rejectSave: 'failed', refuseSave: 'refused' } },
      saved: { on: { type: 'dirty', sort: 'loading' } },
      failed: { on: { save: 'saving', cancel: 'clean', type: 'dirty' } },
      refused: { on: { type: 'dirty', cancel: 'clean' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    loading: async () => {
      expect(listActor().getSnapshot().hasTag('loading')).toBe(true);
      expect(headerActor().getSnapshot().context.locks).toBe(1);
      expectQuery(await net.pending('GET', PATH));
    },
    failure: () => {
      expect(listActor().getSnapshot().matches('failure')).toBe(true);
      expect(notices.at(-1)).toEqual({
        type: 'notify',
        intent: 'danger',
        message: 'Outlet codes fetching error occurs. Please try again later.',
        timeout: 5000,
      });
      expectFree();
    },
    empty: () => {
      expect(listActor().getSnapshot().matches('empty')).toBe(true);
      expect(editor().getSnapshot().context.input).toEqual({ clientId: 3, rows: [] });
      expectFree();
    },
    clean: () => {
      expect(listActor().getSnapshot().matches('loaded')).toBe(true);
      expect(editor().getSnapshot().matches({ editing: 'clean' })).toBe(true);
      expect(shoeLane()).toEqual({
        outletId: 13,
        outletName: 'Shoe Lane',
        mallId: 2,
        mallName: 'Harbour Mall',
        saved: stored,
        text: stored ?? '',
      });
      expect(editor().getSnapshot().can({ type: 'editor.save' })).toBe(false);
      expectFree();
    },
    dirty: () => {
      expect(editor().getSnapshot().matches({ editing: 'dirty' })).toBe(true);
      expect(shoeLane()?.text).toBe(typed);
      expect(editor().getSnapshot().can({ type: 'editor.save' })).toBe(true);
      expect(refusalAt({ outletId: 13, text: typed }, refusalOf(editor().getSnapshot().context.saveError))).toBe(
        undefined,
      );
      expectHeld();
    },
    saving: async () => {
      expect(editor().getSnapshot().hasTag('saving')).toBe(true);
      const request = await net.pending('PUT', PATH);
      // Only the code changed, trimmed.
      expect(request.body).toEqual({ client_id: 3, data: [{ outlet_id: 13, outlet_code: typed.trim() }] });
      expectHeld();
    },
    saved: () => {
      expect(editor().getSnapshot().matches('saved')).toBe(true);
      expect(shoeLane()).toMatchObject({ saved: stored, text: stored });
      expect(notices.at(-1)).toEqual({
        type: 'notify',
        intent: 'success',
        message: 'Save Successfully.',
        timeout: 5000,
      });
      expectFree();
    },
    failed: () => {
      expect(editor().getSnapshot().matches('failed')).toBe(true);
      // The draft stays.
      expect(shoeLane()?.text).toBe(typed);
      expect(refusalOf(editor().getSnapshot().context.saveError)).toBeUndefined();
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: 'Save Failed.', timeout: 5000 });
      expectHeld();
    },
    refused: () => {
      expect(editor().getSnapshot().matches('failed')).toBe(true);
      const row = shoeLane();
      expect(row?.text).toBe(typed);
      const refusal = refusalOf(editor().getSnapshot().context.saveError);
      expect(refusal).toEqual({
        outletId: 13,
        text: typed,
        message: '"S-1" is already the code of Kopi Corner in Central Mall; a code is unique within its mall.',
      });
      expect(row && refusalAt(row, refusal)).toBe(refusal?.message);
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: 'Save Failed.', timeout: 5000 });
      expectHeld();
    },
  },
  events: {
    resolveLoad: async () => {
      await net.answer('GET', PATH, 200, { data: rows(), total: 45 });
    },
    resolveEmpty: async () => {
      await net.answer('GET', PATH, 200, { data: [], total: 0 });
    },
    rejectLoad: async () => {
      await net.answer('GET', PATH, 500, errorBody(500, 'boom'));
    },
    retry: () => pageActor().send({ type: 'list.retry' }),
    search: () => {
      asked = { ...asked, search: 'lane', page: 1 };
      pageActor().send({ type: 'list.search', text: '  lane ' });
    },
    sort: () => {
      const wasHeld = held();
      pageActor().send({ type: 'list.sort', column: 'outlet_code' });
      if (wasHeld) return;
      const again = asked.sortColumn === 'outlet_code';
      asked = { ...asked, sortColumn: 'outlet_code', order: again && asked.order === 'desc' ? 'asc' : 'desc', page: 1 };
    },
    nextPage: () => {
      const wasHeld = held();
      pageActor().send({ type: 'list.page', page: asked.page + 1 });
      if (!wasHeld) asked = { ...asked, page: asked.page + 1 };
    },
    type: () => {
      typings += 1;
      typed = ` S-${typings}`;
      pageActor().send({ type: 'code.change', outletId: 13, text: typed });
    },
    typeBack: () => {
      typed = stored ?? '';
      pageActor().send({ type: 'code.change', outletId: 13, text: typed });
    },
    cancel: () => {
      typed = stored ?? '';
      editor().send({ type: 'editor.cancel' });
    },
    save: () => editor().send({ type: 'editor.save' }),
    resolveSave: async () => {
      editor();
      stored = typed.trim();
      typed = stored;
      await net.answer('PUT', PATH, 200, { success: true, updated: 1 });
    },
    rejectSave: async () => {
      editor();
      await net.answer('PUT', PATH, 500, errorBody(500, 'boom'));
    },
    refuseSave: async () => {
      editor();
      await net.answer('PUT', PATH, 400, errorBody(400, REFUSED));
    },
  },
};

describe('outletCodeMachine (model)', () => {
  beforeEach(() => start());
  describeModelCoverage(model, params, {
    states: ['loading', 'failure', 'empty', 'clean', 'dirty', 'saving', 'saved', 'failed', 'refused'],
    transitions: 24,
  });
});

describe('outletCodeMachine details', () => {
  beforeEach(() => start());

  async function loaded(): Promise<void> {
    await net.answer('GET', PATH, 200, { data: rows(), total: 45 });
    editor();
  }

  it('asks nothing before the header has a client and malls, then asks for them', async () => {
    actor.stop();
    net.reset();
    actor = createActor(appWith(headerWith({ ...FILTERS, clientId: undefined, mallIds: [] })));
    actor.start();
    await flush();
    expect(openGets()).toEqual([]);
    headerActor().send({ type: 'filters.set', filters: FILTERS });
    expectQuery(await net.pending('GET', PATH));
  });

  it('keeps malls chosen while codes are held, and asks for them once the codes are saved or cancelled', async () => {
    await loaded();
    pageActor().send({ type: 'code.change', outletId: 12, text: 'K-99' });
    expect(held()).toBe(true);
    headerActor().send({ type: 'filters.set', filters: { ...FILTERS, mallIds: [2] } });
    await flush();
    expect(openGets()).toEqual([]);
    expect(shoeLane()).toBeDefined();
    editor().send({ type: 'editor.cancel' });
    const request = await net.pending('GET', PATH);
    expect(request.query.getAll('mall_ids')).toEqual(['2']);
  });

  it('is clean again when every code is typed back as saved, never dropping a space typed after a code', async () => {
    await loaded();
    pageActor().send({ type: 'code.change', outletId: 12, text: 'K-12 ' });
    expect(held()).toBe(true);
    // Nothing to save: the code is the same once trimmed.
    expect(editor().getSnapshot().can({ type: 'editor.save' })).toBe(false);
    expect(editor().getSnapshot().context.draft?.rows[0]?.text).toBe('K-12 ');
    pageActor().send({ type: 'code.change', outletId: 12, text: 'K-12' });
    expect(held()).toBe(false);
    expect(editor().getSnapshot().matches({ editing: 'clean' })).toBe(true);
  });

  it('shows a refusal that names no outlet above the table, and clears it on cancel', async () => {
    await loaded();
    pageActor().send({ type: 'code.change', outletId: 13, text: 'X' });
    editor().send({ type: 'editor.save' });
    await net.answer('PUT', PATH, 400, errorBody(400, 'client_id: something is wrong.'));
    expect(refusalOf(editor().getSnapshot().context.saveError)).toEqual({
      outletId: undefined,
      text: undefined,
      message: 'client_id: something is wrong.',
    });
    editor().send({ type: 'editor.cancel' });
    expect(editor().getSnapshot().context.saveError).toBeUndefined();
  });

  it('ignores a code typed for an outlet not shown', async () => {
    await loaded();
    pageActor().send({ type: 'code.change', outletId: 99, text: 'X' });
    expect(held()).toBe(false);
  });
});
