import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, fromPromise, type SnapshotFrom, setup, waitFor } from 'xstate';
import type { UserInfo } from '../../src/api/auth';
import { hrefOf } from '../../src/domain/navigation';
import { permittedRoutes, type RouteNode } from '../../src/domain/permissions';
import { navigationGuardMachine } from '../../src/machines/navigationGuardMachine';
import { ROUTES } from '../../src/routes';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the navigation guard (§2). The model states are what the user sees (the page
 * shown and whether they are signed in); the events are the browser (first load, back), the app
 * (links and the next page of a flow) and the session. Every path drives a real guard actor over
 * the real route table, and checks the location it shows after each step.
 */

function userInfo(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    id: 11,
    username: 'operator@mall.example',
    client_id: 1,
    clients: [1],
    roles: ['mall operator'],
    permissions: [{ name: 'shopper-connect', subPermissions: ['mall-home', 'mall-gmv'] }],
    permissionsList: ['/clients::Read'],
    permissionsComponents: [],
    password_expired: false,
    flags: { tenantOnly: false, hideTopBar: false, receiptsHidden: false },
    ...overrides,
  };
}

const OPERATOR = userInfo();
/** Route generation fails for this user (a provided actor), as it would on broken user info. */
const BROKEN_USER = userInfo({ id: 666, username: 'broken@mall.example' });

const DEEP_LINK = '/shopper-connect/mall-gmv?range=7';
const LOGIN_WITH_REDIRECT = `/login?redirect=${encodeURIComponent(DEEP_LINK)}`;
const LANDING_PAGE = '/shopper-connect/mall-home';

let generateCalls: number;
let sessionInvalid: number;

const testGuardMachine = navigationGuardMachine.provide({
  actors: {
    generateRoutes: fromPromise<RouteNode[], { routeTable: readonly RouteNode[]; user: UserInfo }>(
      async ({ input }) => {
        generateCalls += 1;
        if (input.user.id === BROKEN_USER.id) throw new Error('cannot read the permissions');
        return permittedRoutes(input.routeTable, input.user);
      },
    ),
  },
});

let actor: Actor<typeof testGuardMachine>;
type GuardSnapshot = SnapshotFrom<typeof testGuardMachine>;

function startActor(): void {
  actor = createActor(testGuardMachine, { input: { routeTable: ROUTES } });
  actor.on('session.invalid', () => {
    sessionInvalid += 1;
  });
  actor.start();
}

function snapshot(): GuardSnapshot {
  return actor.getSnapshot();
}

async function settled(): Promise<void> {
  await waitFor(actor, (state) => state.matches('idle') || state.matches('waitingForSession'), { timeout: 1_000 });
}

/** The browser shows a new address (first load, back or forward). */
async function browserOpens(href: string): Promise<void> {
  actor.send({ type: 'location.change', href });
  await settled();
}

/** The app navigates away from a page with unsaved changes: the guard asks first. */
async function appAsksToLeaveFor(href: string): Promise<void> {
  actor.send({ type: 'navigation.request', href });
  await waitFor(actor, (state) => state.matches('confirmingLeave'), { timeout: 1_000 });
}

/** The app navigates (a link, the next page of a flow). */
async function appOpens(href: string): Promise<void> {
  actor.send({ type: 'navigation.request', href });
  await settled();
}

async function sessionBecomes(status: 'checking' | 'signedOut' | 'signedIn', user?: UserInfo): Promise<void> {
  actor.send({ type: 'session.update', status, user: status === 'signedIn' ? user : undefined });
  await settled();
}

function shown(): string | undefined {
  const location = snapshot().context.location;
  return location && hrefOf(location);
}

/** The request was refused: the location stays and the browser is brought back to it (replace). */
let navigationIdBefore = 0;
function expectStayed(href: string): void {
  expect(shown()).toBe(href);
  expect(snapshot().context.navigationId).toBeGreaterThan(navigationIdBefore);
  expect(snapshot().context.replace).toBe(true);
}

type ModelEvent = {
  type:
    | 'browser.openDeepLink'
    | 'browser.openFlowPage'
    | 'browser.backToFlowPage'
    | 'session.signedOut'
    | 'session.signedIn'
    | 'session.brokenUser'
    | 'app.openMfa'
    | 'app.openUpdatePassword'
    | 'app.openResetSuccess'
    | 'app.openReset'
    | 'app.openSso'
    | 'app.openLogin'
    | 'app.openKnown'
    | 'app.openNotPermitted'
    | 'app.openUnknown'
    | 'app.openRoot'
    | 'app.openResetWithKey'
    | 'app.openPublic';
};

/** What the user sees, per §2 (a plain machine: see the note in authMachine.test.ts). */
const guardModel = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'guardModel',
    initial: 'start',
    states: {
      start: { on: { 'browser.openDeepLink': 'deepLinkPending', 'browser.openFlowPage': 'flowPagePending' } },
      deepLinkPending: {
        on: {
          'session.signedOut': 'loginWithRedirect',
          'session.signedIn': 'deepLinkShown',
          'session.brokenUser': 'loginAfterFailure',
        },
      },
      flowPagePending: { on: { 'session.signedOut': 'loginPlain', 'session.signedIn': 'landing' } },
      loginWithRedirect: {
        on: {
          'app.openMfa': 'mfaPage',
          'app.openResetSuccess': 'loginWithRedirect',
          'app.openKnown': 'loginForKnown',
          'app.openReset': 'resetPage',
          'session.signedIn': 'deepLinkShown',
        },
      },
      loginForKnown: {},
      loginPlain: {
        on: {
          'app.openUpdatePassword': 'updatePasswordPage',
          'app.openSso': 'ssoPage',
          'app.openPublic': 'publicPageSignedOut',
          'session.signedIn': 'landing',
        },
      },
      mfaPage: {
        on: { 'app.openUpdatePassword': 'updatePasswordPage', 'session.signedIn': 'deepLinkShown' },
      },
      updatePasswordPage: { on: { 'app.openLogin': 'loginPlain', 'app.openResetSuccess': 'updatePasswordPage' } },
      resetPage: { on: { 'app.openResetSuccess': 'resetSuccessPage' } },
      resetSuccessPage: { on: { 'app.openLogin': 'loginPlain' } },
      ssoPage: { on: { 'session.signedIn': 'landing' } },
      publicPageSignedOut: {},
      deepLinkShown: {
        on: {
          'app.openKnown': 'landing',
          'app.openUnknown': 'notFound',
          'app.openNotPermitted': 'notFound',
          'app.openRoot': 'landing',
          'app.openLogin': 'landing',
          'app.openSso': 'landing',
          'app.openReset': 'landing',
          'app.openMfa': 'deepLinkShown',
          'app.openResetWithKey': 'resetWithKeyPage',
          'app.openUpdatePassword': 'deepLinkShown',
          'browser.backToFlowPage': 'deepLinkShown',
          'session.signedOut': 'loginWithRedirect',
        },
      },
      landing: { on: { 'app.openRoot': 'landing', 'app.openUnknown': 'notFound' } },
      notFound: { on: { 'app.openRoot': 'landing' } },
      resetWithKeyPage: { on: { 'app.openRoot': 'landing' } },
      loginAfterFailure: {},
    },
  }),
);

function expectSignedOutAt(href: string): void {
  expect(snapshot().matches('idle')).toBe(true);
  expect(shown()).toBe(href);
  expect(snapshot().context.routes).toBeUndefined();
}

function expectSignedInAt(href: string): void {
  expect(snapshot().matches('idle')).toBe(true);
  expect(shown()).toBe(href);
  expect(snapshot().context.routes).toBeDefined();
  expect(snapshot().context.landingPage).toBe(LANDING_PAGE);
  // Routes are generated once per user.
  expect(generateCalls).toBe(1);
}

const testParams: TestParam<SnapshotFrom<typeof guardModel.logic>, ModelEvent> = {
  states: {
    start: () => {
      expect(snapshot().matches('idle')).toBe(true);
      expect(shown()).toBeUndefined();
    },
    deepLinkPending: () => {
      // Nothing is shown until the session is known.
      expect(snapshot().matches('waitingForSession')).toBe(true);
      expect(shown()).toBeUndefined();
    },
    flowPagePending: () => {
      expect(snapshot().matches('waitingForSession')).toBe(true);
      expect(shown()).toBeUndefined();
    },
    loginWithRedirect: () => {
      expectSignedOutAt(LOGIN_WITH_REDIRECT);
      expect(snapshot().context.wanted).toBe(DEEP_LINK);
    },
    loginForKnown: () => expectSignedOutAt(`/login?redirect=${encodeURIComponent('/shopper-connect/mall-home')}`),
    loginPlain: () => {
      expectSignedOutAt('/login');
      expect(snapshot().context.wanted).toBeUndefined();
    },
    mfaPage: () => {
      expectSignedOutAt('/mfa-validation');
      // The wanted path survives the MFA step.
      expect(snapshot().context.wanted).toBe(DEEP_LINK);
    },
    updatePasswordPage: () => expectSignedOutAt('/update-password'),
    resetPage: () => expectSignedOutAt('/reset-password'),
    resetSuccessPage: () => expectSignedOutAt('/reset-password-success'),
    ssoPage: () => expectSignedOutAt('/sso?error=Unknown%20domain'),
    publicPageSignedOut: () => expectSignedOutAt('/payment'),
    deepLinkShown: () => {
      expectSignedInAt(DEEP_LINK);
      expect(snapshot().context.wanted).toBeUndefined();
    },
    landing: () => expectSignedInAt(LANDING_PAGE),
    notFound: () => expectSignedInAt('/404'),
    resetWithKeyPage: () => expectSignedInAt('/reset-password?validationKey=k1'),
    loginAfterFailure: () => {
      expect(snapshot().matches('idle')).toBe(true);
      expect(shown()).toBe('/login');
      expect(snapshot().context.routes).toBeUndefined();
      expect(sessionInvalid).toBe(1);
    },
  },
  events: {
    'browser.openDeepLink': async () => {
      await browserOpens(DEEP_LINK);
    },
    'browser.openFlowPage': async () => {
      await browserOpens('/update-password');
    },
    'browser.backToFlowPage': async () => {
      navigationIdBefore = snapshot().context.navigationId;
      await browserOpens('/mfa-validation');
      expectStayed(DEEP_LINK);
    },
    'session.signedOut': async () => {
      await sessionBecomes('signedOut');
    },
    'session.signedIn': async () => {
      await sessionBecomes('signedIn', OPERATOR);
    },
    'session.brokenUser': async () => {
      await sessionBecomes('signedIn', BROKEN_USER);
    },
    'app.openMfa': async () => {
      const before = shown();
      navigationIdBefore = snapshot().context.navigationId;
      await appOpens('/mfa-validation');
      // Only the login step leads to the code page; from anywhere else the user stays.
      if (!before?.startsWith('/login')) expectStayed(before ?? '');
    },
    'app.openUpdatePassword': async () => {
      navigationIdBefore = snapshot().context.navigationId;
      await appOpens('/update-password');
    },
    'app.openResetSuccess': async () => {
      const before = shown();
      navigationIdBefore = snapshot().context.navigationId;
      await appOpens('/reset-password-success');
      if (before !== '/reset-password') expectStayed(before ?? '');
    },
    'app.openReset': async () => {
      await appOpens('/reset-password');
    },
    'app.openSso': async () => {
      await appOpens('/sso?error=Unknown%20domain');
    },
    'app.openLogin': async () => {
      await appOpens('/login');
    },
    'app.openKnown': async () => {
      await appOpens('/shopper-connect/mall-home');
    },
    'app.openNotPermitted': async () => {
      await appOpens('/receipts');
    },
    'app.openUnknown': async () => {
      await appOpens('/no/such/page');
    },
    'app.openRoot': async () => {
      await appOpens('/');
    },
    'app.openResetWithKey': async () => {
      await appOpens('/reset-password?validationKey=k1');
    },
    'app.openPublic': async () => {
      await appOpens('/payment');
    },
  },
};

describe('navigationGuardMachine (model-based)', () => {
  beforeEach(() => {
    generateCalls = 0;
    sessionInvalid = 0;
    navigationIdBefore = 0;
    startActor();
  });
  afterEach(() => {
    actor.stop();
  });

  describeModelCoverage(guardModel, testParams, { states: Object.keys(testParams.states ?? {}), transitions: 39 });
});

describe('navigationGuardMachine details', () => {
  beforeEach(() => {
    generateCalls = 0;
    sessionInvalid = 0;
    startActor();
  });
  afterEach(() => {
    actor.stop();
  });

  it('asks before a link leaves a page with unsaved changes: Stay keeps the page, Leave goes', async () => {
    await browserOpens('/shopper-connect/mall-home');
    await sessionBecomes('signedIn', userInfo());
    actor.send({ type: 'page.unsavedChanges', unsaved: true });
    await appAsksToLeaveFor('/shopper-connect/mall-gmv');
    expect(shown()).toBe('/shopper-connect/mall-home');
    actor.send({ type: 'leave.cancel' });
    expect(snapshot().matches('idle')).toBe(true);
    expect(shown()).toBe('/shopper-connect/mall-home');

    // The same path with another query (a filter written to the address) does not ask.
    await appOpens('/shopper-connect/mall-home?malls=1');
    expect(shown()).toBe('/shopper-connect/mall-home?malls=1');

    await appAsksToLeaveFor('/shopper-connect/mall-gmv');
    actor.send({ type: 'leave.confirm' });
    await waitFor(actor, (state) => state.matches('idle'));
    expect(shown()).toBe('/shopper-connect/mall-gmv');
    // Leaving dropped the changes: the next link goes without asking.
    expect(snapshot().context.unsavedChanges).toBe(false);
    await appOpens('/shopper-connect/mall-home');
    expect(shown()).toBe('/shopper-connect/mall-home');
  });

  it('does not ask once the changes are saved, nor when the session ends', async () => {
    await browserOpens('/shopper-connect/mall-home');
    await sessionBecomes('signedIn', userInfo());
    actor.send({ type: 'page.unsavedChanges', unsaved: true });
    actor.send({ type: 'page.unsavedChanges', unsaved: false });
    await appOpens('/shopper-connect/mall-gmv');
    expect(shown()).toBe('/shopper-connect/mall-gmv');

    actor.send({ type: 'page.unsavedChanges', unsaved: true });
    await appAsksToLeaveFor('/shopper-connect/mall-home');
    await sessionBecomes('signedOut');
    expect(snapshot().matches('confirmingLeave')).toBe(false);
    expect(snapshot().context.pendingLeave).toBeUndefined();
    expect(shown()).toMatch(/^\/login/);
  });

  it('sends the tenant-only account to sales review from / and from /login', async () => {
    const tenantOnly = userInfo({
      id: 12,
      permissions: [],
      flags: { tenantOnly: true, hideTopBar: false, receiptsHidden: false },
    });
    await browserOpens('/');
    await sessionBecomes('signedIn', tenantOnly);
    expect(shown()).toBe('/tenant-connect/sales-review');
    await appOpens('/login');
    expect(shown()).toBe('/tenant-connect/sales-review');
    await appOpens('/tenant-connect/gto-review');
    expect(shown()).toBe('/404');
  });

  it('keeps a user without any page on / instead of looping', async () => {
    await browserOpens('/');
    await sessionBecomes('signedIn', userInfo({ id: 13, permissions: [] }));
    expect(snapshot().context.landingPage).toBe('/');
    expect(shown()).toBe('/');
    await appOpens('/login');
    expect(shown()).toBe('/');
  });

  it('matches routes with parameters and refuses a group path', async () => {
    await browserOpens('/shopper-connect/mall-outlet/42');
    await sessionBecomes('signedIn', userInfo({ id: 14, roles: ['super admin'] }));
    expect(shown()).toBe('/shopper-connect/mall-outlet/42');
    await appOpens('/shopper-connect');
    expect(shown()).toBe('/404');
  });

  it('lets the super admin alone open the outbox: anyone else goes to /404, whatever their permissions', async () => {
    await browserOpens('/admin/outbox');
    await sessionBecomes('signedIn', userInfo({ id: 16, roles: ['super admin'], permissions: [] }));
    expect(shown()).toBe('/admin/outbox');

    await sessionBecomes(
      'signedIn',
      userInfo({
        id: 17,
        permissions: [
          { name: 'admin', subPermissions: ['outbox'] },
          { name: 'receipts', subPermissions: [] },
        ],
      }),
    );
    expect(shown()).toBe('/404');
    await appOpens('/receipts');
    expect(shown()).toBe('/receipts');
    await appOpens('/admin/outbox');
    expect(shown()).toBe('/404');
  });

  it('sends a signed-out visitor of / to /login without a redirect', async () => {
    await browserOpens('/');
    await sessionBecomes('signedOut');
    expect(shown()).toBe('/login');
  });

  it('waits for the session check again (SSO) and then decides on the page shown', async () => {
    await browserOpens('/sso?status=success');
    await sessionBecomes('signedOut');
    expect(shown()).toBe('/sso?status=success');
    await sessionBecomes('checking');
    expect(snapshot().matches('waitingForSession')).toBe(true);
    expect(shown()).toBe('/sso?status=success');
    await sessionBecomes('signedIn', OPERATOR);
    expect(shown()).toBe(LANDING_PAGE);
  });

  it('regenerates routes for another user and forgets them on sign-out', async () => {
    await browserOpens(LANDING_PAGE);
    await sessionBecomes('signedIn', OPERATOR);
    expect(generateCalls).toBe(1);
    await sessionBecomes('signedIn', OPERATOR);
    expect(generateCalls).toBe(1);
    await sessionBecomes('signedOut');
    expect(snapshot().context.routes).toBeUndefined();
    expect(shown()).toBe(`/login?redirect=${encodeURIComponent(LANDING_PAGE)}`);
    await sessionBecomes('signedIn', userInfo({ id: 15, permissions: [{ name: 'receipts', subPermissions: [] }] }));
    expect(generateCalls).toBe(2);
    // /login?redirect= of a page the new user does not have: /404.
    expect(shown()).toBe('/404');
  });

  it('never follows a redirect query outside the site', async () => {
    await browserOpens('/login?redirect=%2F%2Fevil.example.com');
    await sessionBecomes('signedOut');
    expect(snapshot().context.wanted).toBeUndefined();
    await sessionBecomes('signedIn', OPERATOR);
    expect(shown()).toBe(LANDING_PAGE);
  });

  it('pushes app navigations and replaces browser ones', async () => {
    await browserOpens(LANDING_PAGE);
    await sessionBecomes('signedIn', OPERATOR);
    await appOpens('/shopper-connect/mall-gmv');
    expect(snapshot().context.replace).toBe(false);
    actor.send({ type: 'navigation.request', href: '/shopper-connect/mall-home', replace: true });
    await settled();
    expect(snapshot().context.replace).toBe(true);
    await appOpens('/nope');
    // The browser never showed /nope: the redirect to /404 is a new entry.
    expect(shown()).toBe('/404');
    expect(snapshot().context.replace).toBe(false);
    await browserOpens('/shopper-connect/mall-gmv');
    expect(snapshot().context.replace).toBe(true);
  });
});
