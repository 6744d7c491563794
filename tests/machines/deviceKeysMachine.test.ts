import { createTestModel, type TestParam } from '@xstate/test';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, type SnapshotFrom, setup } from 'xstate';
import type { DeviceKey, DeviceKeyCreated } from '../../src/api/deviceKeys';
import type { Outlet } from '../../src/api/lookup';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import { DEVICE_KEYS_SORT_COLUMNS } from '../../src/machines/deviceKeysListMachine';
import { createDeviceKeysMachine } from '../../src/machines/deviceKeysMachine';
import { describeModelCoverage } from './modelCoverage';
import { errorBody, fakeNetwork, flush } from './settingsNetwork';

/*
 * Model-based test of Settings' Point-of-sale devices over an injected fetch handler and clipboard. The header
 * tells client 3 and its outlet Boutique (2) of Central Mall (1), whose outlets are Cafe (5) and Boutique; Kiosk
 * (7) is in Harbour Mall (4) and Pop-up (9) in no mall. The list asks for the keys of the outlet's mall; a key is
 * created for an outlet of the mall with a trimmed name and shown once (copied on request), a key is revoked after
 * a confirmation. Every toast and text exactly.
 */

const CLIENT_ID = 3;
const CENTRAL = 1;
const HARBOUR = 4;
const KEYS = '/api/deviceKeys';

const outlet = (id: number, name: string, mallId: number | null): Outlet => ({
  id,
  name,
  type: 1,
  currency: 'SGD',
  mall_id: mallId,
  outlet_code: null,
});
const OUTLETS = [
  outlet(2, 'Boutique', CENTRAL),
  outlet(5, 'Cafe', CENTRAL),
  outlet(7, 'Kiosk', HARBOUR),
  outlet(9, 'Pop-up', null),
];

const FILTERS: CommittedFilters = {
  clientId: CLIENT_ID,
  mallIds: [CENTRAL, HARBOUR],
  outlet: 2,
  dateRange: { start: '2026-11-01', end: '2026-11-07' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: undefined,
};

const row = (id: number, name: string, revoked: boolean): DeviceKey => ({
  id,
  name,
  outlet_id: 5,
  outlet_name: 'Cafe',
  key_prefix: `pos_prefix${id}`,
  created_at: '2026-11-01T02:00:00.000Z',
  created_by: 'operator@fixture.test',
  last_used_at: null,
  revoked_at: revoked ? '2026-11-02T02:00:00.000Z' : null,
  revoked_by: revoked ? 'operator@fixture.test' : null,
});
const ACTIVE = row(11, 'Till 1', false);
const REVOKED = row(12, 'Old till', true);
const ROWS = { data: [ACTIVE, REVOKED], total: 2 };
const KEY = `pos_${'k'.repeat(43)}`;
const CREATED: DeviceKeyCreated = {
  key: KEY,
  device_key: { ...row(13, 'Front counter', false), key_prefix: KEY.slice(0, 12) },
};
const NAME_REFUSAL = 'body/name must not be blank';

const net = fakeNetwork();
let copies: { text: string; resolve: () => void; reject: (error: Error) => void }[];
const machine = createDeviceKeysMachine(
  net.client,
  (text) =>
    new Promise<void>((resolve, reject) => {
      copies.push({ text, resolve, reject });
    }),
);

let actor: Actor<typeof machine>;
let notices: Notice[];

const snapshot = () => actor.getSnapshot();
const toast = (intent: 'success' | 'danger', message: string) => ({ type: 'notify', intent, message, timeout: 5000 });
const tellHeader = (filters: CommittedFilters = FILTERS, outlets: Outlet[] = OUTLETS) =>
  actor.send({ type: 'header.filters', filters, outlets, today: '2026-11-25' });
const listState = () => snapshot().children.list?.getSnapshot();

function start(): void {
  net.reset();
  setPermissionsList([`${KEYS}::Read`, `${KEYS}::Create`, `${KEYS}::Delete`]);
  notices = [];
  copies = [];
  actor = createActor(machine);
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
}

afterEach(() => actor.stop());
afterAll(() => clearSession());

async function expectListAsked(mallId = CENTRAL): Promise<void> {
  const request = await net.pending('GET', KEYS);
  expect(Object.fromEntries(request.query)).toEqual({
    client_id: String(CLIENT_ID),
    mall_id: String(mallId),
    sortColumn: 'created_at',
    orderByMethod: 'desc',
    page: '1',
    rowsPerPage: '10',
  });
}

type ModelEvent = {
  type:
    | 'tellMall'
    | 'answerList'
    | 'failList'
    | 'retry'
    | 'openCreate'
    | 'fillCreate'
    | 'cancelCreate'
    | 'submit'
    | 'resolveCreate'
    | 'rejectCreate'
    | 'refuseCreate'
    | 'copyKey'
    | 'resolveCopy'
    | 'rejectCopy'
    | 'closeIssued'
    | 'askRevoke'
    | 'cancelRevoke'
    | 'confirmRevoke'
    | 'resolveRevoke'
    | 'rejectRevoke'
    | 'missingRevoke';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'deviceKeysModel',
    initial: 'waiting',
    states: {
      waiting: { on: { tellMall: 'loading' } },
      loading: { on: { answerList: 'idle', failList: 'failed' } },
      failed: { on: { retry: 'loading' } },
      idle: { on: { openCreate: 'editing', askRevoke: 'confirming' } },
      editing: { on: { fillCreate: 'filled', cancelCreate: 'idle' } },
      filled: { on: { submit: 'submitting', cancelCreate: 'idle' } },
      submitting: { on: { resolveCreate: 'issued', rejectCreate: 'createFailed', refuseCreate: 'createRefused' } },
      createFailed: { on: { submit: 'submitting' } },
      createRefused: {},
      issued: { on: { copyKey: 'copying', closeIssued: 'closed' } },
      copying: { on: { resolveCopy: 'copied', rejectCopy: 'copyFailed' } },
      copied: { on: { closeIssued: 'closed' } },
      copyFailed: {},
      closed: {},
      confirming: { on: { confirmRevoke: 'revoking', cancelRevoke: 'idle' } },
      revoking: { on: { resolveRevoke: 'revoked', rejectRevoke: 'revokeFailed', missingRevoke: 'revokeMissing' } },
      revoked: {},
      revokeFailed: {},
      revokeMissing: {},
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const DRAFT = { outletId: 5, name: '  Front counter  ' };
const CREATE_BODY = { client_id: CLIENT_ID, outlet_id: 5, name: 'Front counter' };

const expectIdle = () => {
  expect(snapshot().matches({ ready: 'idle' })).toBe(true);
  expect(snapshot().context).toMatchObject({ draft: undefined, issued: undefined, target: undefined });
};

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    waiting: () => {
      expect(snapshot().matches('waiting')).toBe(true);
      expect(snapshot().children.list).toBeUndefined();
      expect(snapshot().can({ type: 'create.open' })).toBe(false);
      expect(net.open()).toEqual([]);
    },
    loading: async () => {
      expect(listState()?.hasTag('loading')).toBe(true);
      expect(snapshot().context.scope).toEqual({
        clientId: CLIENT_ID,
        mallId: CENTRAL,
        outlets: [
          { id: 2, name: 'Boutique' },
          { id: 5, name: 'Cafe' },
        ],
        outletId: 2,
      });
      await expectListAsked();
    },
    failed: () => {
      expect(listState()?.matches('failure')).toBe(true);
      expect(notices.at(-1)).toEqual(toast('danger', 'Device keys fetching error occurs. Please try again later.'));
    },
    idle: () => {
      expectIdle();
      expect(listState()?.matches('loaded')).toBe(true);
      expect(listState()?.context.rows).toEqual(ROWS.data);
      expect(snapshot().can({ type: 'create.open' })).toBe(true);
      expect(snapshot().can({ type: 'revoke.ask', key: ACTIVE })).toBe(true);
      expect(snapshot().can({ type: 'revoke.ask', key: REVOKED })).toBe(false);
      expect(net.open()).toEqual([]);
    },
    editing: () => {
      expect(snapshot().matches({ ready: { creating: 'editing' } })).toBe(true);
      expect(snapshot().context.draft).toEqual({
        clientId: CLIENT_ID,
        outlets: [
          { id: 2, name: 'Boutique' },
          { id: 5, name: 'Cafe' },
        ],
        outletId: 2,
        name: '',
        problems: { name: 'Enter a name for the device.' },
        error: undefined,
      });
      expect(snapshot().can({ type: 'create.submit' })).toBe(false);
    },
    filled: () => {
      expect(snapshot().context.draft).toMatchObject({ ...DRAFT, problems: {}, error: undefined });
      expect(snapshot().can({ type: 'create.submit' })).toBe(true);
    },
    submitting: async () => {
      expect(snapshot().hasTag('creating')).toBe(true);
      expect(snapshot().can({ type: 'create.cancel' })).toBe(false);
      expect((await net.pending('POST', KEYS)).body).toEqual(CREATE_BODY);
    },
    createFailed: () => {
      expect(snapshot().matches({ ready: { creating: 'editing' } })).toBe(true);
      expect(snapshot().context.draft).toMatchObject({
        ...DRAFT,
        error: 'The device key could not be created. Please try again.',
      });
      expect(snapshot().context.issued).toBeUndefined();
    },
    createRefused: () => {
      expect(snapshot().matches({ ready: { creating: 'editing' } })).toBe(true);
      expect(snapshot().context.draft?.error).toBe(NAME_REFUSAL);
    },
    issued: async () => {
      expect(snapshot().matches({ ready: { creating: { issued: 'shown' } } })).toBe(true);
      expect(snapshot().context).toMatchObject({ issued: CREATED, draft: undefined, copied: undefined });
      // The list is asked again: the new key shows in it.
      await expectListAsked();
    },
    copying: () => {
      expect(snapshot().hasTag('copying')).toBe(true);
      expect(copies.map((copy) => copy.text)).toEqual([KEY]);
    },
    copied: () => {
      expect(snapshot().matches({ ready: { creating: { issued: 'shown' } } })).toBe(true);
      expect(snapshot().context.copied).toBe('key');
    },
    copyFailed: () => {
      expect(snapshot().matches({ ready: { creating: { issued: 'shown' } } })).toBe(true);
      expect(snapshot().context.copied).toBeUndefined();
      expect(notices.at(-1)).toEqual(toast('danger', 'The text could not be copied. Select it and copy it yourself.'));
    },
    closed: () => {
      expectIdle();
      expect(JSON.stringify(snapshot().context)).not.toContain(KEY);
    },
    confirming: () => {
      expect(snapshot().matches({ ready: { revoking: 'confirming' } })).toBe(true);
      expect(snapshot().context.target).toEqual({ clientId: CLIENT_ID, key: ACTIVE });
      expect(net.open()).toEqual([]);
    },
    revoking: async () => {
      expect(snapshot().hasTag('revoking')).toBe(true);
      const request = await net.pending('DELETE', KEYS);
      expect(Object.fromEntries(request.query)).toEqual({ client_id: String(CLIENT_ID), id: String(ACTIVE.id) });
    },
    revoked: async () => {
      expectIdle();
      expect(notices.at(-1)).toEqual(toast('success', 'The device key "Till 1" has been revoked.'));
      await expectListAsked();
    },
    revokeFailed: async () => {
      expectIdle();
      expect(notices.at(-1)).toEqual(toast('danger', 'Revoking the device key "Till 1" failed.'));
      await expectListAsked();
    },
    revokeMissing: async () => {
      expectIdle();
      expect(notices.at(-1)).toEqual(toast('danger', 'There is no such device key.'));
      await expectListAsked();
    },
  },
  events: {
    tellMall: () => {
      tellHeader();
      // The list's own notices (its load failure), as the section's view shows them.
      snapshot().children.list?.on('notify', (notice) => notices.push(notice));
    },
    answerList: async () => {
      await net.answer('GET', KEYS, 200, ROWS);
    },
    failList: async () => {
      await net.answer('GET', KEYS, 500, errorBody(500, 'boom'));
    },
    retry: () => snapshot().children.list?.send({ type: 'list.retry' }),
    openCreate: () => actor.send({ type: 'create.open' }),
    fillCreate: () => {
      actor.send({ type: 'create.change', outletId: DRAFT.outletId });
      actor.send({ type: 'create.change', name: DRAFT.name });
    },
    cancelCreate: () => actor.send({ type: 'create.cancel' }),
    submit: () => actor.send({ type: 'create.submit' }),
    resolveCreate: async () => {
      await net.answer('POST', KEYS, 200, CREATED);
    },
    rejectCreate: async () => {
      await net.answer('POST', KEYS, 500, errorBody(500, 'boom'));
    },
    refuseCreate: async () => {
      await net.answer('POST', KEYS, 400, errorBody(400, NAME_REFUSAL));
    },
    copyKey: () => actor.send({ type: 'issued.copy', what: 'key', text: KEY }),
    resolveCopy: async () => {
      copies.at(-1)?.resolve();
      await flush();
    },
    rejectCopy: async () => {
      copies.at(-1)?.reject(new Error('denied'));
      await flush();
    },
    closeIssued: () => actor.send({ type: 'issued.close' }),
    askRevoke: () => actor.send({ type: 'revoke.ask', key: ACTIVE }),
    cancelRevoke: () => actor.send({ type: 'revoke.cancel' }),
    confirmRevoke: () => actor.send({ type: 'revoke.confirm' }),
    resolveRevoke: async () => {
      await net.answer('DELETE', KEYS, 200, { ...ACTIVE, revoked_at: '2026-11-25T02:00:00.000Z' });
    },
    rejectRevoke: async () => {
      await net.answer('DELETE', KEYS, 500, errorBody(500, 'boom'));
    },
    missingRevoke: async () => {
      await net.answer('DELETE', KEYS, 404, errorBody(404, 'There is no such device key.'));
    },
  },
};

describe('deviceKeysMachine (model)', () => {
  beforeEach(() => start());
  describeModelCoverage(model, params, {
    states: [
      'waiting',
      'loading',
      'failed',
      'idle',
      'editing',
      'filled',
      'submitting',
      'createFailed',
      'createRefused',
      'issued',
      'copying',
      'copied',
      'copyFailed',
      'closed',
      'confirming',
      'revoking',
      'revoked',
      'revokeFailed',
      'revokeMissing',
    ],
    transitions: 24,
  });
});

describe('deviceKeysMachine details', () => {
  beforeEach(() => start());

  it('waits for one outlet of a mall: no client, All Outlets and an outlet in no mall list nothing', () => {
    tellHeader({ ...FILTERS, clientId: undefined });
    tellHeader({ ...FILTERS, outlet: 'all' });
    tellHeader({ ...FILTERS, outlet: 9 });
    tellHeader({ ...FILTERS, outlet: 42 });
    expect(snapshot().matches('waiting')).toBe(true);
    expect(net.open()).toEqual([]);
  });

  it('follows the mall of the header’s outlet: another outlet of it asks nothing, another mall lists its keys', async () => {
    tellHeader();
    await net.answer('GET', KEYS, 200, ROWS);
    tellHeader({ ...FILTERS, outlet: 5 });
    expect(net.open()).toEqual([]);
    // The dialog starts on the header's outlet.
    actor.send({ type: 'create.open' });
    expect(snapshot().context.draft?.outletId).toBe(5);
    // Another mall closes the dialog and lists that mall's keys.
    tellHeader({ ...FILTERS, outlet: 7 });
    expect(snapshot().context.draft).toBeUndefined();
    expect(snapshot().context.scope?.outlets).toEqual([{ id: 7, name: 'Kiosk' }]);
    await expectListAsked(HARBOUR);
    await net.answer('GET', KEYS, 200, { data: [], total: 0 });
    expect(listState()?.matches('empty')).toBe(true);
    // An outlet in no mall: back to waiting, no list.
    tellHeader({ ...FILTERS, outlet: 9 });
    expect(snapshot().matches('waiting')).toBe(true);
    expect(snapshot().children.list).toBeUndefined();
  });

  it('creates nothing with a blank or too long name, and takes only outlets of the mall', async () => {
    tellHeader();
    await net.answer('GET', KEYS, 200, ROWS);
    actor.send({ type: 'create.open' });
    actor.send({ type: 'create.change', name: '   ' });
    expect(snapshot().context.draft?.problems).toEqual({ name: 'Enter a name for the device.' });
    actor.send({ type: 'create.change', name: 'x'.repeat(101) });
    expect(snapshot().context.draft?.problems).toEqual({ name: 'A name has at most 100 characters.' });
    actor.send({ type: 'create.submit' });
    expect(snapshot().matches({ ready: { creating: 'editing' } })).toBe(true);
    expect(snapshot().can({ type: 'create.change', outletId: 7 })).toBe(false);
    actor.send({ type: 'create.change', outletId: 7 });
    expect(snapshot().context.draft?.outletId).toBe(2);
    expect(net.open()).toEqual([]);
  });

  it('sorts by every column, searches and pages through the list', async () => {
    tellHeader();
    await net.answer('GET', KEYS, 200, { data: ROWS.data, total: 25 });
    const list = snapshot().children.list;
    for (const column of DEVICE_KEYS_SORT_COLUMNS) {
      expect(list?.getSnapshot().can({ type: 'list.sort', column })).toBe(true);
    }
    list?.send({ type: 'list.sort', column: 'name' });
    expect((await net.pending('GET', KEYS)).query.get('sortColumn')).toBe('name');
    await net.answer('GET', KEYS, 200, { data: ROWS.data, total: 25 });
    list?.send({ type: 'list.search', text: '  till ' });
    const searched = await net.pending('GET', KEYS);
    expect(searched.query.get('search')).toBe('till');
    await net.answer('GET', KEYS, 200, { data: ROWS.data, total: 25 });
    list?.send({ type: 'list.page', page: 3 });
    expect((await net.pending('GET', KEYS)).query.get('page')).toBe('3');
  });

  it('copies the example too, and the key is forgotten once the dialog is closed', async () => {
    tellHeader();
    await net.answer('GET', KEYS, 200, ROWS);
    actor.send({ type: 'create.open' });
    actor.send({ type: 'create.change', name: 'Till 2' });
    actor.send({ type: 'create.submit' });
    await net.answer('POST', KEYS, 200, CREATED);
    actor.send({ type: 'issued.copy', what: 'example', text: `curl ${KEY}` });
    copies.at(-1)?.resolve();
    await flush();
    expect(snapshot().context.copied).toBe('example');
    actor.send({ type: 'issued.close' });
    expect(JSON.stringify(snapshot().context)).not.toContain(KEY);
  });
});
