import { createTestModel, type TestParam } from '@xstate/test';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, type SnapshotFrom, setup } from 'xstate';
import type { XeroInfoResponse, XeroPosting } from '../../src/api/apps';
import { clearSession, setPermissionsList } from '../../src/api/session';
import {
  addDays,
  isPostableDay,
  XERO_OUTCOMES,
  xeroOutcomeOf,
  xeroPostedMessage,
  xeroReturnPath,
  xeroStatusOf,
} from '../../src/domain/apps';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import { createXeroMachine } from '../../src/machines/xeroMachine';
import { describeModelCoverage } from '../machines/modelCoverage';
import { errorBody, fakeNetwork } from '../machines/settingsNetwork';

/*
 * Model-based test of the Xero page's machine over an injected fetch handler: the header tells client 7; the
 * connection is read (not connected, connected without accounts, or expired), connecting asks the server for
 * Xero's address and leaves for it, the accounts editor saves the three choices, a past day is posted (the log is
 * read again) and the connection is disconnected after a confirmation. Every toast exactly.
 */

const CLIENT_ID = 7;
const TODAY = '2026-11-25';
const INFO = '/api/apps/xero/info';
const CONNECT = '/api/apps/xero/connect';
const SETTINGS = '/api/apps/xero/settings';
const CONNECTION = '/api/apps/xero/connection';
const POSTINGS = '/api/apps/xero/postings';
const AUTHORIZATION_URL = 'https://login.xero.test/identity/connect/authorize?state=abc';

const FILTERS: CommittedFilters = {
  clientId: CLIENT_ID,
  mallIds: [],
  outlet: undefined,
  dateRange: { start: '2026-11-18', end: '2026-11-24' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: undefined,
};

const OPTIONS = {
  salesAccounts: [
    { code: '200', name: 'Sales' },
    { code: '210', name: 'Food Sales' },
  ],
  taxAccounts: [{ code: 'OUTPUT', name: 'Standard-Rated Supplies (9%)' }],
  clearingAccounts: [{ code: '615', name: 'Sales Clearing' }],
  currency: ['SGD'],
};
const NO_OPTIONS = { salesAccounts: [], taxAccounts: [], clearingAccounts: [], currency: [] };
const NOT_CONNECTED: XeroInfoResponse = { xeroInfo: null, isTokenExpired: false, xeroOptions: NO_OPTIONS };
const CONNECTED_INFO = {
  tenant_id: '2d3a8f2c-6f1e-4a47-9a55-8d3c1b6f0a11',
  organisation_name: 'Harbourfront Malls Pte Ltd',
  sales_account: null,
  tax_account: null,
  clearing_account: null,
  currency: 'SGD',
  connected_at: '2026-11-24T03:00:00.000Z',
  connected_by: 'admin@demo.mall',
};
const CONNECTED: XeroInfoResponse = { xeroInfo: CONNECTED_INFO, isTokenExpired: false, xeroOptions: OPTIONS };
const EXPIRED: XeroInfoResponse = { ...CONNECTED, isTokenExpired: true };
const CHOSEN = { sales_account: '210', tax_account: 'OUTPUT', clearing_account: '615' };
const SAVED: XeroInfoResponse = { ...CONNECTED, xeroInfo: { ...CONNECTED_INFO, ...CHOSEN } };

const posting = (outletId: number, status: XeroPosting['status']): XeroPosting => ({
  day: '2026-11-24',
  outlet_id: outletId,
  outlet_name: `Outlet ${outletId}`,
  currency: 'SGD',
  amount: 100,
  status,
  journal_id: status === 'posted' ? `journal-${outletId}` : null,
  message: null,
  updated_at: '2026-11-25T01:30:00.000Z',
});
const LOG = { data: [posting(1, 'posted')], total: 1 };

const net = fakeNetwork();
const navigated: string[] = [];
const machine = createXeroMachine({ client: net.client }).provide({
  actions: {
    navigateTo: (_, params: { url: string }) => {
      navigated.push(params.url);
    },
  },
});

let actor: Actor<typeof machine>;
let notices: Notice[];

const snapshot = () => actor.getSnapshot();
const toast = (intent: 'success' | 'danger', message: string) => ({ type: 'notify', intent, message, timeout: 5000 });
/** The page's accounts editor, while it runs. */
const accountsEditor = () => snapshot().children.accounts;
const accountsDraft = () => accountsEditor()?.getSnapshot().context.draft;

async function start(): Promise<void> {
  net.reset();
  navigated.length = 0;
  setPermissionsList([
    `${INFO}::Read`,
    `${CONNECT}::Create`,
    `${SETTINGS}::Update`,
    `${CONNECTION}::Delete`,
    `${POSTINGS}::Read`,
    `${POSTINGS}::Create`,
  ]);
  notices = [];
  actor = createActor(machine, { input: { today: TODAY } });
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
  actor.send({ type: 'header.filters', filters: FILTERS, outlets: [], today: TODAY });
  await net.answer('GET', POSTINGS, 200, LOG);
}

afterEach(() => actor.stop());
afterAll(() => clearSession());

type ModelEvent = {
  type:
    | 'answerNotConnected'
    | 'answerConnected'
    | 'answerExpired'
    | 'failLoad'
    | 'retry'
    | 'connect'
    | 'resolveConnect'
    | 'refuseConnect'
    | 'chooseAccounts'
    | 'save'
    | 'resolveSave'
    | 'rejectSave'
    | 'post'
    | 'resolvePost'
    | 'refusePost'
    | 'disconnect'
    | 'cancelDisconnect'
    | 'confirmDisconnect'
    | 'resolveDisconnect';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'xeroModel',
    initial: 'loading',
    states: {
      loading: {
        on: {
          answerNotConnected: 'notConnected',
          answerConnected: 'connected',
          answerExpired: 'expired',
          failLoad: 'loadFailed',
        },
      },
      loadFailed: { on: { retry: 'loading' } },
      notConnected: { on: { connect: 'connecting' } },
      connecting: { on: { resolveConnect: 'leaving', refuseConnect: 'connectRefused' } },
      leaving: {},
      connectRefused: {},
      expired: { on: { connect: 'connecting' } },
      connected: { on: { chooseAccounts: 'edited' } },
      edited: { on: { save: 'saving' } },
      saving: { on: { resolveSave: 'ready', rejectSave: 'saveFailed' } },
      saveFailed: {},
      ready: { on: { post: 'posting', disconnect: 'confirming' } },
      posting: { on: { resolvePost: 'posted', refusePost: 'postRefused' } },
      posted: {},
      postRefused: {},
      confirming: { on: { cancelDisconnect: 'ready', confirmDisconnect: 'disconnecting' } },
      disconnecting: { on: { resolveDisconnect: 'disconnected' } },
      disconnected: {},
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const inConnection = (value: unknown) => snapshot().matches({ client: { connection: value } } as never);

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    loading: async () => {
      expect(snapshot().hasTag('loading')).toBe(true);
      const request = await net.pending('GET', INFO);
      expect(request.query.get('client_id')).toBe(String(CLIENT_ID));
    },
    loadFailed: () => {
      expect(inConnection('failure')).toBe(true);
      expect(notices.at(-1)).toEqual(toast('danger', 'Xero connection fetching error occurs. Please try again later.'));
    },
    notConnected: () => {
      expect(inConnection({ ready: 'notConnected' })).toBe(true);
      expect(snapshot().can({ type: 'xero.connect' })).toBe(true);
      expect(snapshot().can({ type: 'xero.disconnect' })).toBe(false);
      expect(snapshot().can({ type: 'posting.post' })).toBe(false);
      expect(snapshot().children.accounts).toBeUndefined();
    },
    connecting: async () => {
      expect(snapshot().hasTag('connecting')).toBe(true);
      expect((await net.pending('POST', CONNECT)).body).toEqual({ client_id: CLIENT_ID });
    },
    leaving: () => {
      expect(inConnection('leaving')).toBe(true);
      expect(navigated).toEqual([AUTHORIZATION_URL]);
    },
    connectRefused: () => {
      expect(inConnection('ready')).toBe(true);
      expect(navigated).toEqual([]);
      expect(notices.at(-1)).toEqual(toast('danger', 'Xero is not set up on this server.'));
    },
    expired: () => {
      expect(inConnection({ ready: 'expired' })).toBe(true);
      expect(snapshot().can({ type: 'xero.connect' })).toBe(true);
      expect(snapshot().can({ type: 'xero.disconnect' })).toBe(true);
      expect(snapshot().can({ type: 'posting.post' })).toBe(false);
    },
    connected: () => {
      expect(inConnection({ ready: 'connected' })).toBe(true);
      expect(accountsDraft()).toEqual({ clientId: CLIENT_ID, salesAccount: '', taxAccount: '', clearingAccount: '' });
      // No accounts saved yet: nothing can be posted.
      expect(snapshot().can({ type: 'posting.post' })).toBe(false);
    },
    edited: () => {
      expect(accountsEditor()?.getSnapshot().can({ type: 'editor.save' })).toBe(true);
    },
    saving: async () => {
      expect((await net.pending('PUT', SETTINGS)).body).toEqual({ client_id: CLIENT_ID, ...CHOSEN });
    },
    saveFailed: () => {
      // The editor keeps the draft and tells 'Save Failed.' (its own toast, shown by the page's view).
      const accounts = accountsEditor()?.getSnapshot();
      expect(accounts?.matches('failed')).toBe(true);
      expect(accounts?.context.draft).toMatchObject({ salesAccount: '210' });
      expect(snapshot().can({ type: 'posting.post' })).toBe(false);
    },
    ready: () => {
      expect(snapshot().context.info?.xeroInfo).toMatchObject(CHOSEN);
      expect(snapshot().context.day).toBe(addDays(TODAY, -1));
      expect(snapshot().can({ type: 'posting.post' })).toBe(true);
      expect(snapshot().can({ type: 'xero.disconnect' })).toBe(true);
    },
    posting: async () => {
      expect(snapshot().hasTag('posting')).toBe(true);
      expect((await net.pending('POST', POSTINGS)).body).toEqual({ client_id: CLIENT_ID, day: '2026-11-24' });
    },
    posted: async () => {
      expect(notices.at(-1)).toEqual(toast('success', 'Posted 2 journals for 2026-11-24 to Xero.'));
      expect(snapshot().context.lastPosting?.postedNow).toBe(2);
      // The log is read again.
      await net.pending('GET', POSTINGS);
    },
    postRefused: () => {
      expect(snapshot().matches({ client: { posting: 'idle' } })).toBe(true);
      expect(notices.at(-1)).toEqual(
        toast('danger', 'Choose the sales account, the tax rate and the clearing account first.'),
      );
    },
    confirming: () => {
      expect(inConnection('confirmingDisconnect')).toBe(true);
      expect(net.open()).toEqual([]);
    },
    disconnecting: async () => {
      expect(snapshot().hasTag('disconnecting')).toBe(true);
      expect((await net.pending('DELETE', CONNECTION)).query.get('client_id')).toBe(String(CLIENT_ID));
    },
    disconnected: () => {
      expect(inConnection({ ready: 'notConnected' })).toBe(true);
      expect(notices.at(-1)).toEqual(toast('success', 'Disconnected from Xero.'));
      expect(snapshot().children.accounts).toBeUndefined();
    },
  },
  events: {
    answerNotConnected: async () => {
      await net.answer('GET', INFO, 200, NOT_CONNECTED);
    },
    answerConnected: async () => {
      await net.answer('GET', INFO, 200, CONNECTED);
    },
    answerExpired: async () => {
      await net.answer('GET', INFO, 200, EXPIRED);
    },
    failLoad: async () => {
      await net.answer('GET', INFO, 500, errorBody(500, 'boom'));
    },
    retry: () => actor.send({ type: 'xero.retry' }),
    connect: () => actor.send({ type: 'xero.connect' }),
    resolveConnect: async () => {
      await net.answer('POST', CONNECT, 200, { authorizationUrl: AUTHORIZATION_URL });
    },
    refuseConnect: async () => {
      await net.answer('POST', CONNECT, 409, {
        statusCode: 409,
        error: 'Conflict',
        message: 'Xero is not set up on this server.',
      });
    },
    chooseAccounts: () => {
      accountsEditor()?.send({
        type: 'editor.change',
        value: { clientId: CLIENT_ID, salesAccount: '210', taxAccount: 'OUTPUT', clearingAccount: '615' },
      });
    },
    save: () => accountsEditor()?.send({ type: 'editor.save' }),
    resolveSave: async () => {
      await net.answer('PUT', SETTINGS, 200, SAVED);
    },
    rejectSave: async () => {
      await net.answer('PUT', SETTINGS, 500, errorBody(500, 'boom'));
    },
    post: () => actor.send({ type: 'posting.post' }),
    resolvePost: async () => {
      await net.answer('POST', POSTINGS, 200, {
        day: '2026-11-24',
        postedNow: 2,
        rows: [posting(1, 'posted'), posting(2, 'posted')],
      });
    },
    refusePost: async () => {
      await net.answer('POST', POSTINGS, 409, {
        statusCode: 409,
        error: 'Conflict',
        message: 'Choose the sales account, the tax rate and the clearing account first.',
      });
    },
    disconnect: () => actor.send({ type: 'xero.disconnect' }),
    cancelDisconnect: () => actor.send({ type: 'xero.disconnect.cancel' }),
    confirmDisconnect: () => actor.send({ type: 'xero.disconnect.confirm' }),
    resolveDisconnect: async () => {
      await net.answer('DELETE', CONNECTION, 200, NOT_CONNECTED);
    },
  },
};

describe('xeroMachine (model)', () => {
  beforeEach(() => start());
  describeModelCoverage(model, params, {
    states: [
      'loading',
      'loadFailed',
      'notConnected',
      'connecting',
      'leaving',
      'connectRefused',
      'expired',
      'connected',
      'edited',
      'saving',
      'saveFailed',
      'ready',
      'posting',
      'posted',
      'postRefused',
      'confirming',
      'disconnecting',
      'disconnected',
    ],
    transitions: 20,
  });
});

describe('xeroMachine details', () => {
  beforeEach(() => start());

  it('keeps the callback’s outcome until it is dismissed', () => {
    const opened = createActor(machine, { input: { outcome: 'cancelled', today: TODAY } }).start();
    expect(opened.getSnapshot().context.outcome).toBe('cancelled');
    opened.send({ type: 'outcome.dismiss' });
    expect(opened.getSnapshot().context.outcome).toBeUndefined();
    opened.stop();
  });

  it('posts only a day before today and within 366 days', async () => {
    await net.answer('GET', INFO, 200, SAVED);
    expect(snapshot().can({ type: 'posting.post' })).toBe(true);
    for (const [day, allowed] of [
      [TODAY, false],
      ['2026-11-26', false],
      [addDays(TODAY, -366), true],
      [addDays(TODAY, -367), false],
      ['2026-02-30', false],
      ['', false],
    ] as const) {
      actor.send({ type: 'posting.day', day });
      expect(snapshot().can({ type: 'posting.post' }), day).toBe(allowed);
    }
  });

  it('reads the connection of a new client of the header', async () => {
    await net.answer('GET', INFO, 200, SAVED);
    actor.send({ type: 'header.filters', filters: { ...FILTERS, clientId: 8 }, outlets: [], today: TODAY });
    expect((await net.pending('GET', INFO)).query.get('client_id')).toBe('8');
    expect((await net.pending('GET', POSTINGS)).query.get('client_id')).toBe('8');
    expect(snapshot().context.info).toBeUndefined();
  });
});

describe('the Apps domain', () => {
  it('reads the callback’s outcome from the query, an unknown code as a failure', () => {
    expect(xeroOutcomeOf('?xero=connected')).toBe('connected');
    expect(xeroOutcomeOf('xero=mismatch&x=1')).toBe('mismatch');
    expect(xeroOutcomeOf('?xero=<script>')).toBe('failed');
    expect(xeroOutcomeOf('')).toBeUndefined();
    expect(xeroReturnPath('signed_out')).toBe('/apps/xero?xero=signed_out');
    expect(XERO_OUTCOMES.connected).toBe('Connected to Xero.');
  });

  it('tells the status and the posting toast', () => {
    expect(xeroStatusOf(NOT_CONNECTED)).toBe('notConnected');
    expect(xeroStatusOf(CONNECTED)).toBe('connected');
    expect(xeroStatusOf(EXPIRED)).toBe('expired');
    expect(xeroPostedMessage('2026-11-24', 1)).toBe('Posted 1 journal for 2026-11-24 to Xero.');
    expect(xeroPostedMessage('2026-11-24', 0)).toBe(
      "Nothing new to post for 2026-11-24: every outlet's sales of that day are in the log.",
    );
  });

  it('counts days on the calendar', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(isPostableDay('2026-11-24', TODAY)).toBe(true);
    expect(isPostableDay('2026-13-01', TODAY)).toBe(false);
  });
});
