import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, fromPromise, setup, waitFor } from 'xstate';
import type { CredentialResponse, LoginRequest, LoginResponse, LogoutResponse, UserInfo } from '../../src/api/auth';
import { ApiError } from '../../src/api/errors';
import type { Client, Mall, Outlet } from '../../src/api/lookup';
import type { Notice } from '../../src/domain/messages';
import { type AppInput, appMachine } from '../../src/machines/appMachine';
import { authMachine } from '../../src/machines/authMachine';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { followHeaderFilters, type HeaderFiltersEvent, lockHeader } from '../../src/machines/headerLink';
import { type MemoryHistory, memoryHistory } from '../../src/machines/historyPort';
import { layoutMachine } from '../../src/machines/layoutMachine';
import { pageFiltersFor, ROUTES } from '../../src/routes';

/*
 * The root app machine with its real children (auth, guard, layout, filter header, inspector); only their server
 * calls answer from here, and the address bar is a memory one.
 */

const USER: UserInfo = {
  id: 7,
  username: 'ops@mall.example',
  client_id: 3,
  clients: [3],
  roles: ['mall operator'],
  permissions: [{ name: 'shopper-connect', subPermissions: ['mall-home', 'mall-gmv'] }],
  permissionsList: ['/clients::Read', '/malls::Read', '/outlets::Read'],
  permissionsComponents: [],
  password_expired: false,
  flags: { tenantOnly: false, hideTopBar: false, receiptsHidden: false },
};
const MALLS: Mall[] = [{ id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' }];
const OUTLETS: Outlet[] = [{ id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null }];

let signedIn = false;
/** The malls' today the server sends with the user info (undefined: none sent). */
let serverToday: string | undefined;
const currentUser = (): UserInfo => (serverToday === undefined ? USER : { ...USER, today: serverToday });
const auth = authMachine.provide({
  actors: {
    checkCredential: fromPromise<CredentialResponse>(async () => {
      if (!signedIn) throw new ApiError(401, 'Please sign in.');
      return { user: currentUser(), csrfToken: 'csrf' };
    }),
    fetchCsrfToken: fromPromise<string>(async () => 'csrf-anonymous'),
    logIn: fromPromise<LoginResponse, LoginRequest>(async ({ input }) => {
      if (input.password !== 'right-password-1') throw new ApiError(401, 'username or password is incorrect');
      signedIn = true;
      return {
        user: currentUser(),
        session: { expiresAt: '2030-01-01T00:00:00.000Z', mfaPending: false },
        require_mfa: false,
        csrfToken: 'csrf-login',
      };
    }),
    logOut: fromPromise<LogoutResponse>(async () => {
      signedIn = false;
      return { success: true };
    }),
  },
  actions: { reloadPage: () => undefined, navigateTo: () => undefined },
});

const testApp = appMachine.provide({
  actors: {
    auth,
    layout: layoutMachine.provide({
      actors: {
        fetchClients: fromPromise<Client[]>(async () => [
          { id: 3, name: 'Harbourfront Malls', reporting_currency: 'SGD' },
        ]),
      },
      actions: { writeSidebarCookie: () => undefined },
    }),
    filterHeader: filterHeaderMachine.provide({
      actors: {
        fetchMalls: fromPromise<Mall[], { clientId: number }>(async () => MALLS),
        fetchOutlets: fromPromise<Outlet[], { clientId: number }>(async () => OUTLETS),
      },
      actions: { writeCookies: () => undefined },
    }),
  },
});

let app: Actor<typeof testApp> | undefined;
let history: MemoryHistory;
let notices: Notice[];
/** Every event an actor of the app's system received: the receiver and the event's type. */
let received: { to: unknown; type: string }[];

function start(path: string, input: Partial<AppInput> = {}): Actor<typeof testApp> {
  history = memoryHistory(path);
  notices = [];
  received = [];
  app = createActor(testApp, {
    input: { routeTable: ROUTES, pageFilters: pageFiltersFor, history, mobile: false, readCookies: () => '', ...input },
    inspect: (inspection) => {
      if (inspection.type === '@xstate.event') received.push({ to: inspection.actorRef, type: inspection.event.type });
    },
  });
  app.on('notify', (notice) => notices.push(notice));
  return app.start();
}

afterEach(() => {
  app?.stop();
  app = undefined;
  signedIn = false;
  serverToday = undefined;
});

async function settled(actor: Actor<typeof testApp>) {
  await vi.waitFor(() => expect(actor.system.get('navigation')?.getSnapshot().matches('idle')).toBe(true));
}

describe('the app machine', () => {
  it('gives the header the malls’ today of the user info, not the browser’s, so the malls’ today can be picked', async () => {
    // A day the browser's clock is not on, whatever the hour and the zone the test runs in.
    serverToday = '2031-05-06';
    signedIn = true;
    const actor = start('/shopper-connect/mall-gmv?from=2031-05-06&to=2031-05-06');
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn'));
    const header = actor.system.get('filterHeader');
    await vi.waitFor(() => expect(header?.getSnapshot().context.malls).toHaveLength(1));
    const context = header?.getSnapshot().context;
    expect(context?.today).toBe('2031-05-06');
    expect(context?.window.latest).toBe('2031-05-06');
    // The URL's range (the malls' today) is kept, not refused as a future day and replaced by the default.
    expect(context?.filters.dateRange).toMatchObject({ start: '2031-05-06', end: '2031-05-06' });
    expect(context?.urlReasons).toEqual([]);
  });

  it('sends a signed-out visitor to /login with the wanted page, running no signed-in actor', async () => {
    const actor = start('/shopper-connect/mall-gmv?from=2024-01-01');
    await vi.waitFor(() => expect(history.current()).toMatch(/^\/login/));
    expect(history.current()).toBe(
      `/login?redirect=${encodeURIComponent('/shopper-connect/mall-gmv?from=2024-01-01')}`,
    );
    expect(actor.getSnapshot().value).toBe('signedOut');
    for (const id of ['filterHeader', 'layout', 'inspector']) expect(actor.system.get(id)).toBeUndefined();
  });

  it('shows a failed sign-in once, in the form (no toast), and starts layout, header and inspector once signed in', async () => {
    const actor = start('/login');
    await settled(actor);
    const authRef = actor.system.get('auth');
    authRef?.send({ type: 'login.submit', username: 'ops@mall.example', password: 'wrong-password-1' });
    await vi.waitFor(() =>
      expect(authRef?.getSnapshot().context.errorMessage).toBe('username or password is incorrect'),
    );
    expect(notices).toEqual([]);

    authRef?.send({ type: 'login.submit', username: 'ops@mall.example', password: 'right-password-1' });
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn'));
    expect(history.current()).toBe('/shopper-connect/mall-home');
    expect(actor.getSnapshot().context.user?.id).toBe(USER.id);
    for (const id of ['filterHeader', 'layout', 'inspector']) expect(actor.system.get(id)).toBeDefined();
  });

  it('lets the guard decide where the browser goes on its own, and tells the header and the sidebar', async () => {
    signedIn = true;
    const actor = start('/shopper-connect/mall-home');
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn'));
    const header = actor.system.get('filterHeader');
    const layout = actor.system.get('layout');
    const told = (to: unknown) => received.filter((event) => event.to === to).map((event) => event.type);
    const before = { header: told(header).length, layout: told(layout).length };

    history.go('/shopper-connect/mall-gmv');
    await vi.waitFor(() =>
      expect(actor.system.get('navigation')?.getSnapshot().context.location?.path).toBe('/shopper-connect/mall-gmv'),
    );
    // A new page: the header gets its filters and its address, the sidebar its open group.
    expect(told(header).slice(before.header)).toEqual(['page.change', 'url.change']);
    expect(told(layout).slice(before.layout)).toEqual(['route.change']);

    history.go('/settings');
    await vi.waitFor(() => expect(history.current()).toBe('/404'));
    expect(history.entries).toEqual(['/shopper-connect/mall-home', '/shopper-connect/mall-gmv', '/404']);
  });

  it('ends the signed-in actors on logout', async () => {
    signedIn = true;
    const actor = start('/shopper-connect/mall-home');
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn'));
    actor.system.get('auth')?.send({ type: 'logout' });
    await waitFor(actor, (snapshot) => snapshot.matches('signedOut'));
    for (const id of ['filterHeader', 'layout', 'inspector']) expect(actor.system.get(id)).toBeUndefined();
    expect(actor.getSnapshot().context.user).toBeUndefined();
  });

  it("starts the layout in the theme the signed-in user chose in this browser (read by the user's id)", async () => {
    signedIn = true;
    const asked: number[] = [];
    const actor = start('/shopper-connect/mall-home', {
      readTheme: (userId) => {
        asked.push(userId);
        return userId === USER.id ? 'dark' : undefined;
      },
      prefersDark: () => false,
    });
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn'));
    const layout = actor.system.get('layout');
    expect(asked).toEqual([USER.id]);
    expect(layout?.getSnapshot().hasTag('darkTheme')).toBe(true);
  });

  it("lets a page machine of its system follow the header's filters and disable the header while it loads", async () => {
    signedIn = true;
    const actor = start('/shopper-connect/mall-home');
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn'));
    const header = actor.system.get('filterHeader') as Actor<typeof filterHeaderMachine>;
    await waitFor(header, (snapshot) => snapshot.context.filters.mallIds.length > 0);

    const seen: HeaderFiltersEvent['filters'][] = [];
    const page = setup({
      types: { events: {} as HeaderFiltersEvent | { type: 'page.load' } | { type: 'page.done' } },
      actors: { followHeaderFilters, lockHeader },
    }).createMachine({
      invoke: { src: 'followHeaderFilters' },
      on: { 'header.filters': { actions: ({ event }) => seen.push(event.filters) } },
      initial: 'idle',
      states: {
        idle: { on: { 'page.load': 'loading' } },
        loading: { invoke: { src: 'lockHeader' }, on: { 'page.done': 'idle' } },
      },
    });
    actor.send({ type: 'page.open', logic: page });
    const pageActor = actor.getSnapshot().context.page?.ref;
    if (!pageActor) throw new Error('the page did not start');
    expect(seen).toEqual([header.getSnapshot().context.filters]);

    pageActor.send({ type: 'page.load' });
    expect(header.getSnapshot().hasTag('disabled')).toBe(true);
    pageActor.send({ type: 'page.done' });
    expect(header.getSnapshot().hasTag('disabled')).toBe(false);

    // Left mid-load: the lock's cleanup enables the header again.
    pageActor.send({ type: 'page.load' });
    expect(header.getSnapshot().hasTag('disabled')).toBe(true);
    actor.send({ type: 'page.close', logic: page });
    expect(actor.getSnapshot().context.page).toBeUndefined();
    expect(header.getSnapshot().hasTag('disabled')).toBe(false);
  });

  it('starts a page machine with the input its view gives, and a new one each time it is opened', async () => {
    signedIn = true;
    const actor = start('/shopper-connect/mall-home');
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn'));
    const page = setup({
      types: { input: {} as { filters: string } | undefined, context: {} as { filters: string } },
    }).createMachine({ context: ({ input }) => ({ filters: input?.filters ?? 'none' }) });
    const contextOf = () => actor.getSnapshot().context.page?.ref.getSnapshot().context;

    actor.send({ type: 'page.open', logic: page, input: { filters: 'fixed' } });
    expect(contextOf()).toEqual({ filters: 'fixed' });
    actor.send({ type: 'page.close', logic: page });
    actor.send({ type: 'page.open', logic: page });
    expect(contextOf()).toEqual({ filters: 'none' });
  });
});
