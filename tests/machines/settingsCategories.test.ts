import { createTestModel, type TestParam } from '@xstate/test';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, type SnapshotFrom, setup } from 'xstate';
import { clearSession } from '../../src/api/session';
import type { Notice } from '../../src/domain/messages';
import { type AssignKind, createCategoriesMachine } from '../../src/machines/settings/categoriesMachine';
import { describeModelCoverage } from './modelCoverage';
import { errorBody, fakeNetwork } from './settingsNetwork';

/*
 * Model-based test of the categories editor (§2, §4, §5, §7, §8, §9) over an injected fetch handler: client 3 at
 * outlet 12 has the category Drinks (id 7) and the subcategory Coffee (id 70). The create dialog (type 1 or 2)
 * needs a name (an empty one aborts: nothing is sent); delete asks first; the assignment dialog pages the name
 * options 20 at a time (scrolling stops after a page of fewer than 20), highlights the first match of the search,
 * sends the ticked ids de-duplicated, and says 'No subcategory selected.' with no selection. Every toast of §8.
 */

const CLIENT_ID = 3;
const OUTLET_ID = 12;
const CATEGORIES = '/outlets/categories';
const SUBCATEGORIES = '/outlets/subcategories';
const OPTIONS: Record<AssignKind, string> = {
  subcategories: '/outlets/subcategories/name_option',
  skus: '/outlets/skuCategory/name_option',
};
const ASSIGN: Record<AssignKind, { method: string; path: string }> = {
  subcategories: { method: 'PUT', path: '/outlets/subcategories' },
  skus: { method: 'POST', path: '/outlets/skuCategory' },
};
const DRINKS = { id: 7, name: 'Drinks' };
const COFFEE = { id: 70, name: 'Coffee', category_id: 7 };
const SERVER_REFUSAL = 'A category named Tea already exists.';

const net = fakeNetwork();
const machine = createCategoriesMachine(net.client);

let actor: Actor<typeof machine>;
let notices: Notice[];
let createType: 1 | 2;
let createName: string;
let kind: AssignKind;
let page: number;
let search: string;
let selected: number[];

const options = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: from + index, name: `Option ${from + index}` }));

async function answerLists(): Promise<void> {
  await net.answer('GET', CATEGORIES, 200, { data: [DRINKS], total: 1 });
  await net.answer('GET', SUBCATEGORIES, 200, { data: [COFFEE], total: 1 });
}

async function start(): Promise<void> {
  net.reset();
  notices = [];
  createType = 1;
  createName = '';
  kind = 'subcategories';
  page = 1;
  search = '';
  selected = [];
  actor = createActor(machine, { input: { clientId: CLIENT_ID, outletId: OUTLET_ID } });
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
  await answerLists();
}

afterEach(() => actor.stop());
afterAll(() => clearSession());

const snapshot = () => actor.getSnapshot();
const toast = (intent: 'success' | 'danger', message: string) => ({ type: 'notify', intent, message, timeout: 5000 });
async function expectRefresh(path: string): Promise<void> {
  const request = await net.pending('GET', path);
  expect(request.query.get('client_id')).toBe(String(CLIENT_ID));
}

type ModelEvent = {
  type:
    | 'openCreateCategory'
    | 'openCreateSubcategory'
    | 'typeName'
    | 'submitEmpty'
    | 'cancelCreate'
    | 'submit'
    | 'resolveCreate'
    | 'rejectCreate'
    | 'refuseCreate'
    | 'askDelete'
    | 'confirmDelete'
    | 'cancelDelete'
    | 'resolveDelete'
    | 'rejectDelete'
    | 'openAssign'
    | 'resolveFullPage'
    | 'resolveLastPage'
    | 'rejectOptions'
    | 'scroll'
    | 'search'
    | 'tick'
    | 'untick'
    | 'submitNothing'
    | 'submitAssign'
    | 'resolveAssign'
    | 'rejectAssign'
    | 'close';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'categoriesModel',
    initial: 'idle',
    states: {
      idle: {
        on: {
          openCreateCategory: 'createOpen',
          openCreateSubcategory: 'createOpen',
          askDelete: 'confirming',
          openAssign: 'optionsLoading',
        },
      },
      createOpen: { on: { typeName: 'named', submitEmpty: 'idle', cancelCreate: 'idle' } },
      named: { on: { submit: 'creating', cancelCreate: 'idle' } },
      creating: { on: { resolveCreate: 'created', rejectCreate: 'createFailed', refuseCreate: 'createRefused' } },
      created: {},
      createFailed: { on: { submit: 'creating', cancelCreate: 'idle' } },
      createRefused: {},
      confirming: { on: { confirmDelete: 'deleting', cancelDelete: 'idle' } },
      deleting: { on: { resolveDelete: 'deleted', rejectDelete: 'deleteFailed' } },
      deleted: {},
      deleteFailed: {},
      optionsLoading: {
        on: { resolveFullPage: 'morePages', resolveLastPage: 'lastPage', rejectOptions: 'optionsFailed' },
      },
      optionsFailed: { on: { close: 'idle' } },
      morePages: { on: { scroll: 'optionsLoading' } },
      lastPage: { on: { search: 'optionsLoading', tick: 'ticked', submitNothing: 'noSelection', close: 'idle' } },
      noSelection: {},
      ticked: { on: { untick: 'lastPage', submitAssign: 'assigning' } },
      assigning: { on: { resolveAssign: 'assigned', rejectAssign: 'assignFailed' } },
      assigned: {},
      assignFailed: {},
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const expectNoDialog = () => {
  expect(snapshot().context.create).toBeUndefined();
  expect(snapshot().context.assign).toBeUndefined();
  expect(snapshot().matches({ remove: 'idle' })).toBe(true);
};

const assignMessages = () =>
  kind === 'subcategories'
    ? { success: 'Assign subcategory successfully.', failure: 'Assign subcategory failed.' }
    : { success: 'Assign items successfully.', failure: 'Assign items failed.' };

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    idle: () => {
      expectNoDialog();
      expect(snapshot().can({ type: 'create.open', categoryType: 1 })).toBe(true);
      expect(net.open()).toEqual([]);
    },
    createOpen: () => {
      expect(snapshot().matches({ create: 'open' })).toBe(true);
      expect(snapshot().context.create).toEqual({ categoryType: createType, name: '' });
    },
    named: () => {
      expect(snapshot().context.create).toEqual({ categoryType: createType, name: createName });
    },
    creating: async () => {
      expect(snapshot().hasTag('creating')).toBe(true);
      const request = await net.pending('POST', CATEGORIES);
      expect(request.body).toEqual({
        client_id: CLIENT_ID,
        id: String(OUTLET_ID),
        name: createName.trim(),
        isCategory: createType === 1,
      });
    },
    created: async () => {
      expect(snapshot().matches({ create: 'closed' })).toBe(true);
      expect(notices.at(-1)).toEqual(toast('success', `${createName.trim()} has been added successfully.`));
      await expectRefresh(createType === 1 ? CATEGORIES : SUBCATEGORIES);
    },
    createFailed: () => {
      expect(snapshot().matches({ create: 'open' })).toBe(true);
      expect(snapshot().context.create?.name).toBe(createName);
      expect(notices.at(-1)).toEqual(toast('danger', `Add ${createName.trim()} failed.`));
    },
    createRefused: () => {
      expect(snapshot().matches({ create: 'open' })).toBe(true);
      expect(notices.at(-1)).toEqual(toast('danger', SERVER_REFUSAL));
    },
    confirming: () => {
      expect(snapshot().matches({ remove: 'confirming' })).toBe(true);
      expect(snapshot().context.remove).toEqual({ categoryType: 1, id: DRINKS.id, name: DRINKS.name });
      expect(net.open()).toEqual([]);
    },
    deleting: async () => {
      expect(snapshot().hasTag('deleting')).toBe(true);
      const request = await net.pending('DELETE', CATEGORIES);
      expect(request.body).toEqual({ client_id: CLIENT_ID, category_id: DRINKS.id, isCategory: true });
    },
    deleted: async () => {
      expect(snapshot().matches({ remove: 'idle' })).toBe(true);
      expect(notices.at(-1)).toEqual(toast('success', 'Drinks has been deleted successfully.'));
      await expectRefresh(CATEGORIES);
      await expectRefresh(SUBCATEGORIES);
    },
    deleteFailed: () => {
      expect(snapshot().matches({ remove: 'idle' })).toBe(true);
      expect(notices.at(-1)).toEqual(toast('danger', 'Delete Drinks failed.'));
    },
    optionsLoading: async () => {
      expect(snapshot().hasTag('optionsLoading')).toBe(true);
      const request = await net.pending('GET', OPTIONS[kind]);
      const expected: Record<string, string> = {
        client_id: String(CLIENT_ID),
        [kind === 'subcategories' ? 'category_id' : 'subcategory_id']: String(DRINKS.id),
        page: String(page),
      };
      if (search !== '') expected.searchedText = search;
      expect(Object.fromEntries(request.query)).toEqual(expected);
    },
    optionsFailed: () => {
      expect(snapshot().matches({ assign: { open: 'idle' } })).toBe(true);
      expect(snapshot().can({ type: 'assign.more' })).toBe(false);
      expect(notices.at(-1)).toEqual(toast('danger', 'Options fetching error occurs. Please try again later.'));
    },
    morePages: () => {
      expect(snapshot().context.assign?.options).toHaveLength(20 * page);
      expect(snapshot().can({ type: 'assign.more' })).toBe(true);
    },
    lastPage: () => {
      expect(snapshot().can({ type: 'assign.more' })).toBe(false);
      expect(snapshot().context.assign?.selected).toEqual(selected);
      const names = snapshot().context.assign?.options.map((option) => option.name) ?? [];
      const expected =
        search === '' ? -1 : names.findIndex((name) => name.toLowerCase().includes(search.toLowerCase()));
      expect(snapshot().context.assign?.highlighted).toBe(expected);
    },
    noSelection: () => {
      expect(snapshot().matches({ assign: { open: 'idle' } })).toBe(true);
      expect(notices.at(-1)).toEqual(toast('danger', 'No subcategory selected.'));
      expect(net.open()).toEqual([]);
    },
    ticked: () => {
      expect(snapshot().context.assign?.selected).toEqual(selected);
    },
    assigning: async () => {
      expect(snapshot().hasTag('assigning')).toBe(true);
      const { method, path } = ASSIGN[kind];
      const request = await net.pending(method, path);
      expect(request.body).toEqual(
        kind === 'subcategories'
          ? { client_id: CLIENT_ID, category_id: DRINKS.id, subcategory_ids: selected }
          : { client_id: CLIENT_ID, id: String(OUTLET_ID), subcategory_id: DRINKS.id, sku_ids: selected },
      );
    },
    assigned: async () => {
      expect(snapshot().matches({ assign: 'closed' })).toBe(true);
      expect(notices.at(-1)).toEqual(toast('success', assignMessages().success));
      await expectRefresh(SUBCATEGORIES);
    },
    assignFailed: () => {
      expect(snapshot().matches({ assign: { open: 'idle' } })).toBe(true);
      expect(snapshot().context.assign?.selected).toEqual(selected);
      expect(notices.at(-1)).toEqual(toast('danger', assignMessages().failure));
    },
  },
  events: {
    openCreateCategory: () => {
      createType = 1;
      actor.send({ type: 'create.open', categoryType: 1 });
    },
    openCreateSubcategory: () => {
      createType = 2;
      actor.send({ type: 'create.open', categoryType: 2 });
    },
    typeName: () => {
      createName = ' Tea ';
      actor.send({ type: 'create.change', name: createName });
    },
    submitEmpty: () => {
      actor.send({ type: 'create.change', name: '   ' });
      actor.send({ type: 'create.submit' });
    },
    cancelCreate: () => actor.send({ type: 'create.cancel' }),
    submit: () => actor.send({ type: 'create.submit' }),
    resolveCreate: async () => {
      await net.answer('POST', CATEGORIES, 200, { id: 8, name: 'Tea' });
    },
    rejectCreate: async () => {
      await net.answer('POST', CATEGORIES, 500, errorBody(500, 'boom'));
    },
    refuseCreate: async () => {
      await net.answer('POST', CATEGORIES, 400, errorBody(400, SERVER_REFUSAL));
    },
    askDelete: () => actor.send({ type: 'delete.ask', categoryType: 1, id: DRINKS.id, name: DRINKS.name }),
    confirmDelete: () => actor.send({ type: 'delete.confirm' }),
    cancelDelete: () => actor.send({ type: 'delete.cancel' }),
    resolveDelete: async () => {
      await net.answer('DELETE', CATEGORIES, 200, { success: true });
    },
    rejectDelete: async () => {
      await net.answer('DELETE', CATEGORIES, 500, errorBody(500, 'boom'));
    },
    openAssign: () => {
      page = 1;
      search = '';
      actor.send({ type: 'assign.open', kind, id: DRINKS.id, name: DRINKS.name });
    },
    resolveFullPage: async () => {
      await net.answer('GET', OPTIONS[kind], 200, { data: options((page - 1) * 20 + 1, 20), assignedIds: [] });
    },
    resolveLastPage: async () => {
      await net.answer('GET', OPTIONS[kind], 200, { data: options((page - 1) * 20 + 1, 5), assignedIds: [] });
    },
    rejectOptions: async () => {
      await net.answer('GET', OPTIONS[kind], 500, errorBody(500, 'boom'));
    },
    scroll: () => {
      page += 1;
      actor.send({ type: 'assign.more' });
    },
    search: () => {
      page = 1;
      search = 'tion 3';
      actor.send({ type: 'assign.search', text: ' tion 3 ' });
    },
    tick: () => {
      const first = snapshot().context.assign?.options[0]?.id ?? 0;
      selected = [first];
      actor.send({ type: 'assign.toggle', id: first });
    },
    untick: () => {
      const first = selected[0] ?? 0;
      selected = [];
      actor.send({ type: 'assign.toggle', id: first });
    },
    submitNothing: () => actor.send({ type: 'assign.submit' }),
    submitAssign: () => actor.send({ type: 'assign.submit' }),
    resolveAssign: async () => {
      await net.answer(ASSIGN[kind].method, ASSIGN[kind].path, 200, { success: true, updated: selected.length });
    },
    rejectAssign: async () => {
      await net.answer(ASSIGN[kind].method, ASSIGN[kind].path, 500, errorBody(500, 'boom'));
    },
    close: () => actor.send({ type: 'assign.close' }),
  },
};

describe('categoriesMachine (model)', () => {
  beforeEach(() => start());
  describeModelCoverage(model, params, {
    states: [
      'idle',
      'createOpen',
      'named',
      'creating',
      'created',
      'createFailed',
      'createRefused',
      'confirming',
      'deleting',
      'deleted',
      'deleteFailed',
      'optionsLoading',
      'optionsFailed',
      'morePages',
      'lastPage',
      'noSelection',
      'ticked',
      'assigning',
      'assigned',
      'assignFailed',
    ],
    transitions: 31,
  });
});

describe('categoriesMachine details', () => {
  beforeEach(() => start());

  it('loads both paged lists of the client with their totals', async () => {
    const categories = snapshot().children.categories;
    expect(categories?.getSnapshot().context).toMatchObject({ rows: [DRINKS], total: 1 });
    const first = net.requests.find((request) => request.path === CATEGORIES);
    expect(Object.fromEntries(first?.query ?? [])).toEqual({ client_id: '3', page: '1', rowsPerPage: '10' });
  });

  it('assigns items to a subcategory, unassigns unticked ones with null, ids de-duplicated', async () => {
    kind = 'skus';
    actor.send({ type: 'assign.open', kind: 'skus', id: COFFEE.id, name: COFFEE.name });
    await net.answer('GET', OPTIONS.skus, 200, { data: options(1, 3), assignedIds: [2, 3] });
    expect(snapshot().context.assign?.selected).toEqual([2, 3]);
    actor.send({ type: 'assign.toggle', id: 3 });
    actor.send({ type: 'assign.toggle', id: 1 });
    actor.send({ type: 'assign.submit' });
    const assigned = await net.answer('POST', '/outlets/skuCategory', 200, { success: true, updated: 2 });
    expect(assigned.body).toEqual({
      client_id: CLIENT_ID,
      id: String(OUTLET_ID),
      subcategory_id: COFFEE.id,
      sku_ids: [2, 1],
    });
    const unassigned = await net.answer('POST', '/outlets/skuCategory', 200, { success: true, updated: 1 });
    expect(unassigned.body).toEqual({
      client_id: CLIENT_ID,
      id: String(OUTLET_ID),
      subcategory_id: null,
      sku_ids: [3],
    });
    expect(notices.at(-1)).toEqual(toast('success', 'Assign items successfully.'));
    expect(snapshot().matches({ assign: 'closed' })).toBe(true);
  });

  it('unticking everything a category had unassigns it (no "No subcategory selected.")', async () => {
    actor.send({ type: 'assign.open', kind: 'subcategories', id: DRINKS.id, name: DRINKS.name });
    await net.answer('GET', OPTIONS.subcategories, 200, { data: [{ id: 70, name: 'Coffee' }], assignedIds: [70] });
    actor.send({ type: 'assign.toggle', id: 70 });
    actor.send({ type: 'assign.submit' });
    const request = await net.answer('PUT', SUBCATEGORIES, 200, { success: true, updated: 1 });
    expect(request.body).toEqual({ client_id: CLIENT_ID, category_id: null, subcategory_ids: [70] });
    expect(notices.at(-1)).toEqual(toast('success', 'Assign subcategory successfully.'));
  });

  it('a failed item assignment says so', async () => {
    actor.send({ type: 'assign.open', kind: 'skus', id: COFFEE.id, name: COFFEE.name });
    await net.answer('GET', OPTIONS.skus, 200, { data: options(1, 2), assignedIds: [] });
    actor.send({ type: 'assign.submit' });
    expect(notices.at(-1)).toEqual(toast('danger', 'No subcategory selected.'));
    actor.send({ type: 'assign.toggle', id: 1 });
    actor.send({ type: 'assign.submit' });
    await net.answer('POST', '/outlets/skuCategory', 500, errorBody(500, 'boom'));
    expect(notices.at(-1)).toEqual(toast('danger', 'Assign items failed.'));
  });

  it('deletes a subcategory with isCategory false', async () => {
    actor.send({ type: 'delete.ask', categoryType: 2, id: COFFEE.id, name: COFFEE.name });
    actor.send({ type: 'delete.confirm' });
    const request = await net.answer('DELETE', CATEGORIES, 200, { success: true });
    expect(request.body).toEqual({ client_id: CLIENT_ID, category_id: COFFEE.id, isCategory: false });
    expect(notices.at(-1)).toEqual(toast('success', 'Coffee has been deleted successfully.'));
  });

  it('appends the next page without repeating an option, and stops after a short page', async () => {
    actor.send({ type: 'assign.open', kind: 'subcategories', id: DRINKS.id, name: DRINKS.name });
    await net.answer('GET', OPTIONS.subcategories, 200, { data: options(1, 20), assignedIds: [] });
    actor.send({ type: 'assign.more' });
    const second = await net.answer('GET', OPTIONS.subcategories, 200, { data: options(20, 3), assignedIds: [] });
    expect(second.query.get('page')).toBe('2');
    expect(snapshot().context.assign?.options.map((option) => option.id)).toEqual(
      Array.from({ length: 22 }, (_, index) => index + 1),
    );
    expect(snapshot().can({ type: 'assign.more' })).toBe(false);
  });
});
