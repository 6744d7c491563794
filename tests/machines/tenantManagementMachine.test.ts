import { createTestModel, type TestParam } from '@xstate/test';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, type SnapshotFrom, setup } from 'xstate';
import type { Outlet } from '../../src/api/lookup';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { TenantUser } from '../../src/api/tenantManagement';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import type { TenantUserAction } from '../../src/domain/tenantManagement';
import { createTenantManagementMachine } from '../../src/machines/tenantConnect/tenantManagementMachine';
import { describeModelCoverage } from './modelCoverage';
import { errorBody, fakeNetwork } from './settingsNetwork';

/*
 * Model-based test of Tenant Management's page machine over an injected fetch handler. The header tells client 3
 * with the outlets Boutique (2) and Cafe (5); its tenant users are Ann (active), Ivy (invited) and Zed
 * (deactivated). Inviting sends the trimmed address and name with the ticked outlets in id order; an invitation
 * goes again to Ivy, Ann is deactivated, Zed reactivated, each after a confirmation. Every toast exactly: done,
 * '… failed.', and the server's text on a 400.
 */

const CLIENT_ID = 3;
const USERS = '/api/tenantManagement/users';
const INVITATION = '/api/tenantManagement/users/invitation';
const STATUS = '/api/tenantManagement/users/status';

const outlet = (id: number, name: string): Outlet => ({
  id,
  name,
  type: 1,
  currency: 'SGD',
  mall_id: 1,
  outlet_code: `O-${id}`,
});
const OUTLETS = [outlet(5, 'Cafe'), outlet(2, 'Boutique')];

const FILTERS: CommittedFilters = {
  clientId: CLIENT_ID,
  mallIds: [],
  outlet: undefined,
  dateRange: { start: '2026-11-01', end: '2026-11-07' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: undefined,
};

const user = (id: number, name: string, email: string, status: TenantUser['status']): TenantUser => ({
  id,
  name,
  email,
  status,
  outlets: [{ id: 2, name: 'Boutique' }],
  invited_at: '2026-11-01T00:00:00.000Z',
  last_sign_in_at: null,
});
const ANN = user(11, 'Ann Active', 'ann@tenant.test', 'active');
const IVY = user(12, 'Ivy Invited', 'ivy@tenant.test', 'invited');
const ZED = user(13, 'Zed Disabled', 'zed@tenant.test', 'deactivated');
const ROWS = { data: [ANN, IVY, ZED], total: 3 };
const ACTION_USER: Record<TenantUserAction, TenantUser> = { resend: IVY, deactivate: ANN, reactivate: ZED };
const DONE: Record<TenantUserAction, string> = {
  resend: 'Invitation sent to ivy@tenant.test.',
  deactivate: 'Ann Active has been deactivated.',
  reactivate: 'Zed Disabled has been reactivated.',
};
const FAILED: Record<TenantUserAction, string> = {
  resend: 'Resend invitation to ivy@tenant.test failed.',
  deactivate: 'Deactivate Ann Active failed.',
  reactivate: 'Reactivate Zed Disabled failed.',
};
const REFUSAL = 'user_id: ivy@tenant.test has already activated the account.';
const EMAIL_TAKEN = 'email: an account with this e-mail address already exists.';

const net = fakeNetwork();
const machine = createTenantManagementMachine(net.client);

let actor: Actor<typeof machine>;
let notices: Notice[];
let action: TenantUserAction;

const snapshot = () => actor.getSnapshot();
const toast = (intent: 'success' | 'danger', message: string) => ({ type: 'notify', intent, message, timeout: 5000 });
const tellHeader = (filters: CommittedFilters = FILTERS, outlets: Outlet[] = OUTLETS) =>
  actor.send({ type: 'header.filters', filters, outlets, today: '2026-11-25' });

async function answerList(): Promise<void> {
  await net.answer('GET', USERS, 200, ROWS);
}

async function start(): Promise<void> {
  net.reset();
  setPermissionsList(['/api/tenantManagement/*::*', `${USERS}::*`]);
  notices = [];
  action = 'resend';
  actor = createActor(machine);
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
  tellHeader();
  await answerList();
}

afterEach(() => actor.stop());
afterAll(() => clearSession());

async function expectListAskedAgain(): Promise<void> {
  const request = await net.pending('GET', USERS);
  expect(request.query.get('client_id')).toBe(String(CLIENT_ID));
}

type ModelEvent = {
  type:
    | 'changeStatus'
    | 'answerList'
    | 'openInvite'
    | 'fillInvite'
    | 'cancelInvite'
    | 'submitInvite'
    | 'resolveInvite'
    | 'rejectInvite'
    | 'refuseInvite'
    | 'askResend'
    | 'askDeactivate'
    | 'askReactivate'
    | 'confirm'
    | 'cancelAction'
    | 'resolveAction'
    | 'rejectAction'
    | 'refuseAction';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'tenantManagementModel',
    initial: 'idle',
    states: {
      idle: {
        on: {
          changeStatus: 'listLoading',
          openInvite: 'inviteOpen',
          askResend: 'confirming',
          askDeactivate: 'confirming',
          askReactivate: 'confirming',
        },
      },
      listLoading: { on: { answerList: 'idle' } },
      inviteOpen: { on: { fillInvite: 'inviteFilled', cancelInvite: 'idle' } },
      inviteFilled: { on: { submitInvite: 'inviting', cancelInvite: 'idle' } },
      inviting: { on: { resolveInvite: 'invited', rejectInvite: 'inviteFailed', refuseInvite: 'inviteRefused' } },
      invited: {},
      inviteFailed: { on: { submitInvite: 'inviting', cancelInvite: 'idle' } },
      inviteRefused: {},
      confirming: { on: { confirm: 'acting', cancelAction: 'idle' } },
      acting: { on: { resolveAction: 'acted', rejectAction: 'actFailed', refuseAction: 'actRefused' } },
      acted: {},
      actFailed: {},
      actRefused: {},
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const DRAFT = { email: ' New@Tenant.test ', name: ' Nora New ', outletIds: [5, 2] };
const INVITE_BODY = { client_id: CLIENT_ID, email: 'New@Tenant.test', name: 'Nora New', outlet_ids: '2,5' };

const expectNoDialog = () => {
  expect(snapshot().matches({ invite: 'closed', action: 'idle' })).toBe(true);
  expect(snapshot().context.invite).toBeUndefined();
  expect(snapshot().context.target).toBeUndefined();
};

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    idle: () => {
      expectNoDialog();
      expect(snapshot().can({ type: 'invite.open' })).toBe(true);
      expect(snapshot().children.list?.getSnapshot().matches('loaded')).toBe(true);
      expect(net.open()).toEqual([]);
    },
    listLoading: async () => {
      expect(snapshot().context.status).toBe('invited');
      const request = await net.pending('GET', USERS);
      expect(Object.fromEntries(request.query)).toEqual({
        client_id: String(CLIENT_ID),
        page: '1',
        rowsPerPage: '20',
        sortColumn: 'name',
        orderByMethod: 'asc',
        status: 'invited',
      });
    },
    inviteOpen: () => {
      expect(snapshot().matches({ invite: 'open' })).toBe(true);
      expect(snapshot().context.invite).toMatchObject({
        clientId: CLIENT_ID,
        email: '',
        name: '',
        outletIds: [],
        outlets: [
          { id: 5, name: 'Cafe' },
          { id: 2, name: 'Boutique' },
        ],
        problems: {
          email: 'Please enter a valid e-mail address.',
          name: 'Enter a name.',
          outlets: 'Choose at least one outlet.',
        },
      });
      expect(snapshot().can({ type: 'invite.submit' })).toBe(false);
    },
    inviteFilled: () => {
      expect(snapshot().context.invite).toMatchObject({ ...DRAFT, problems: {} });
      expect(snapshot().can({ type: 'invite.submit' })).toBe(true);
    },
    inviting: async () => {
      expect(snapshot().hasTag('inviting')).toBe(true);
      const request = await net.pending('POST', USERS);
      expect(request.body).toEqual(INVITE_BODY);
    },
    invited: async () => {
      expect(snapshot().matches({ invite: 'closed' })).toBe(true);
      expect(snapshot().context.invite).toBeUndefined();
      expect(notices.at(-1)).toEqual(toast('success', 'Invitation sent to new@tenant.test.'));
      await expectListAskedAgain();
    },
    inviteFailed: () => {
      expect(snapshot().matches({ invite: 'open' })).toBe(true);
      expect(snapshot().context.invite).toMatchObject(DRAFT);
      expect(notices.at(-1)).toEqual(toast('danger', 'Invite New@Tenant.test failed.'));
    },
    inviteRefused: () => {
      expect(snapshot().matches({ invite: 'open' })).toBe(true);
      expect(notices.at(-1)).toEqual(toast('danger', EMAIL_TAKEN));
    },
    confirming: () => {
      expect(snapshot().matches({ action: 'confirming' })).toBe(true);
      expect(snapshot().context.target).toEqual({ clientId: CLIENT_ID, action, user: ACTION_USER[action] });
      expect(net.open()).toEqual([]);
    },
    acting: async () => {
      expect(snapshot().hasTag('acting')).toBe(true);
      const target = ACTION_USER[action];
      if (action === 'resend') {
        expect((await net.pending('POST', INVITATION)).body).toEqual({ client_id: CLIENT_ID, user_id: target.id });
      } else {
        expect((await net.pending('PUT', STATUS)).body).toEqual({
          client_id: CLIENT_ID,
          user_id: target.id,
          active: action === 'reactivate',
        });
      }
    },
    acted: async () => {
      expect(snapshot().matches({ action: 'idle' })).toBe(true);
      expect(snapshot().context.target).toBeUndefined();
      expect(notices.at(-1)).toEqual(toast('success', DONE[action]));
      await expectListAskedAgain();
    },
    actFailed: async () => {
      expect(snapshot().matches({ action: 'idle' })).toBe(true);
      expect(notices.at(-1)).toEqual(toast('danger', FAILED[action]));
      await expectListAskedAgain();
    },
    actRefused: () => {
      expect(snapshot().matches({ action: 'idle' })).toBe(true);
      expect(notices.at(-1)).toEqual(toast('danger', REFUSAL));
    },
  },
  events: {
    changeStatus: () => actor.send({ type: 'status.change', status: 'invited' }),
    answerList,
    openInvite: () => actor.send({ type: 'invite.open' }),
    fillInvite: () => {
      actor.send({ type: 'invite.change', email: DRAFT.email });
      actor.send({ type: 'invite.change', name: DRAFT.name });
      for (const outletId of DRAFT.outletIds) actor.send({ type: 'invite.toggleOutlet', outletId });
    },
    cancelInvite: () => actor.send({ type: 'invite.cancel' }),
    submitInvite: () => actor.send({ type: 'invite.submit' }),
    resolveInvite: async () => {
      await net.answer('POST', USERS, 200, user(20, 'Nora New', 'new@tenant.test', 'invited'));
    },
    rejectInvite: async () => {
      await net.answer('POST', USERS, 500, errorBody(500, 'boom'));
    },
    refuseInvite: async () => {
      await net.answer('POST', USERS, 400, errorBody(400, EMAIL_TAKEN));
    },
    askResend: () => {
      action = 'resend';
      actor.send({ type: 'action.ask', action, user: IVY });
    },
    askDeactivate: () => {
      action = 'deactivate';
      actor.send({ type: 'action.ask', action, user: ANN });
    },
    askReactivate: () => {
      action = 'reactivate';
      actor.send({ type: 'action.ask', action, user: ZED });
    },
    confirm: () => actor.send({ type: 'action.confirm' }),
    cancelAction: () => actor.send({ type: 'action.cancel' }),
    resolveAction: async () => {
      const status = action === 'resend' ? 'invited' : action === 'deactivate' ? 'deactivated' : 'active';
      const answered = { ...ACTION_USER[action], status };
      if (action === 'resend') await net.answer('POST', INVITATION, 200, answered);
      else await net.answer('PUT', STATUS, 200, answered);
    },
    rejectAction: async () => {
      if (action === 'resend') await net.answer('POST', INVITATION, 500, errorBody(500, 'boom'));
      else await net.answer('PUT', STATUS, 500, errorBody(500, 'boom'));
    },
    refuseAction: async () => {
      if (action === 'resend') await net.answer('POST', INVITATION, 400, errorBody(400, REFUSAL));
      else await net.answer('PUT', STATUS, 400, errorBody(400, REFUSAL));
    },
  },
};

describe('tenantManagementMachine (model)', () => {
  beforeEach(() => start());
  describeModelCoverage(model, params, {
    states: [
      'idle',
      'listLoading',
      'inviteOpen',
      'inviteFilled',
      'inviting',
      'invited',
      'inviteFailed',
      'inviteRefused',
      'confirming',
      'acting',
      'acted',
      'actFailed',
      'actRefused',
    ],
    transitions: 20,
  });
});

describe('tenantManagementMachine details', () => {
  beforeEach(() => start());

  it('asks for the header’s client, first page by name; every status sends no status', async () => {
    const first = net.requests.find((request) => request.path === USERS);
    expect(Object.fromEntries(first?.query ?? [])).toEqual({
      client_id: '3',
      page: '1',
      rowsPerPage: '20',
      sortColumn: 'name',
      orderByMethod: 'asc',
    });
    actor.send({ type: 'status.change', status: 'deactivated' });
    await answerList();
    actor.send({ type: 'status.change', status: 'all' });
    const request = await net.pending('GET', USERS);
    expect(request.query.get('status')).toBeNull();
    // The same status again asks nothing.
    await answerList();
    actor.send({ type: 'status.change', status: 'all' });
    expect(net.open()).toEqual([]);
  });

  it('follows a new client of the header; other header changes only refresh the outlets offered', async () => {
    tellHeader({ ...FILTERS, mallIds: [1] }, [outlet(7, 'Kiosk')]);
    expect(net.open()).toEqual([]);
    expect(snapshot().context.outlets).toEqual([{ id: 7, name: 'Kiosk' }]);
    // A client of one outlet: the invitation is to it.
    actor.send({ type: 'invite.open' });
    expect(snapshot().context.invite?.outletIds).toEqual([7]);
    actor.send({ type: 'invite.cancel' });
    tellHeader({ ...FILTERS, clientId: 4 }, []);
    const request = await net.pending('GET', USERS);
    expect(request.query.get('client_id')).toBe('4');
  });

  it('allows each action only for the statuses it fits', () => {
    const can = (which: TenantUserAction, target: TenantUser) =>
      snapshot().can({ type: 'action.ask', action: which, user: target });
    expect([can('resend', IVY), can('resend', ANN), can('resend', ZED)]).toEqual([true, false, false]);
    expect([can('deactivate', IVY), can('deactivate', ANN), can('deactivate', ZED)]).toEqual([true, true, false]);
    expect([can('reactivate', IVY), can('reactivate', ANN), can('reactivate', ZED)]).toEqual([false, false, true]);
    actor.send({ type: 'action.ask', action: 'resend', user: ANN });
    expect(snapshot().matches({ action: 'idle' })).toBe(true);
  });

  it('sends no invitation with a wrong address, a blank name or no outlet; ignores outlets not offered', () => {
    actor.send({ type: 'invite.open' });
    actor.send({ type: 'invite.change', email: 'not-an-address', name: 'Nora' });
    actor.send({ type: 'invite.toggleOutlet', outletId: 2 });
    expect(snapshot().can({ type: 'invite.submit' })).toBe(false);
    actor.send({ type: 'invite.change', email: 'nora@tenant.test', name: '   ' });
    expect(snapshot().context.invite?.problems).toEqual({ name: 'Enter a name.' });
    actor.send({ type: 'invite.change', name: 'Nora' });
    actor.send({ type: 'invite.toggleOutlet', outletId: 2 });
    actor.send({ type: 'invite.toggleOutlet', outletId: 99 });
    expect(snapshot().context.invite?.outletIds).toEqual([]);
    actor.send({ type: 'invite.submit' });
    expect(snapshot().matches({ invite: 'open' })).toBe(true);
    expect(net.open()).toEqual([]);
  });

  it('opens neither dialog before the header has a client', () => {
    const fresh = createActor(machine);
    fresh.start();
    expect(fresh.getSnapshot().can({ type: 'invite.open' })).toBe(false);
    expect(fresh.getSnapshot().can({ type: 'action.ask', action: 'resend', user: IVY })).toBe(false);
    fresh.stop();
  });
});
