// @vitest-environment jsdom
import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, fromPromise, type SnapshotFrom, setup, waitFor } from 'xstate';
import type { Client } from '../../src/api/lookup';
import type { Notice } from '../../src/domain/messages';
import { type Theme, themeStorageKey } from '../../src/domain/theme';
import { readStoredTheme } from '../../src/machines/documentTheme';
import { isClientSelectorShown, type LayoutInput, layoutMachine, themeOf } from '../../src/machines/layoutMachine';
import { type Deferred, deferred } from '../support/deferred';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the signed-in frame (§2, §4, §9), written from the spec: the sidebar is open or
 * closed (remembered in a cookie on the desktop, closed on mobile whatever the cookie says), mobile closes
 * it with its close button and with any link (the current page's included), the client selector shows only
 * with more than one client and the menu open, the clients are sorted case-insensitively. Every path drives
 * a real layout actor whose clients lookup is a deferred promise and whose cookie writes are recorded.
 */

const CLIENTS: Client[] = [
  { id: 2, name: 'sunrise Retail Group', reporting_currency: 'IDR' },
  { id: 1, name: 'Harbourfront Malls', reporting_currency: 'SGD' },
];
const SORTED = ['Harbourfront Malls', 'sunrise Retail Group'];
const OPTIONS_ERROR = 'Options fetching error occurs. Please try again later.';

let pending: Deferred<Client[]> | undefined;
let clientRequests: number;
let clientFailures: number;
let cookieWrites: string[];
let notices: Notice[];
let actor: Actor<typeof testMachine>;

const testMachine = layoutMachine.provide({
  actors: {
    fetchClients: fromPromise<Client[]>(() => {
      clientRequests += 1;
      pending = deferred();
      return pending.promise;
    }),
  },
  actions: {
    writeSidebarCookie: (_, params: { status: 'opened' | 'closed' }) => {
      cookieWrites.push(params.status);
    },
  },
});

function start(input: LayoutInput): void {
  pending = undefined;
  clientRequests = 0;
  clientFailures = 0;
  cookieWrites = [];
  notices = [];
  actor = createActor(testMachine, { input });
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
}

function snapshot(): SnapshotFrom<typeof testMachine> {
  return actor.getSnapshot();
}

async function answerClients(clients: Client[]): Promise<void> {
  if (!pending) throw new Error('the machine did not ask for the clients');
  pending.resolve(clients);
  await waitFor(actor, (state) => !state.matches({ clients: 'loading' }), { timeout: 1_000 });
}

async function failClients(): Promise<void> {
  if (!pending) throw new Error('the machine did not ask for the clients');
  clientFailures += 1;
  pending.reject(new Error('Failed to fetch'));
  await waitFor(actor, (state) => state.matches({ clients: 'failure' }), { timeout: 1_000 });
}

type ModelEvent = {
  type:
    | 'start.desktop'
    | 'start.desktopRemembersClosed'
    | 'start.mobile'
    | 'start.oneClient'
    | 'server.clientsLoaded'
    | 'server.clientsFailed'
    | 'clients.retry'
    | 'sidebar.toggle'
    | 'sidebar.close'
    | 'menu.select'
    | 'route.change';
};

const layoutModel = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'layoutModel',
    initial: 'notStarted',
    states: {
      notStarted: {
        on: {
          'start.desktop': 'desktopLoadingClients',
          'start.desktopRemembersClosed': 'desktopRememberedClosed',
          'start.mobile': 'mobileClosed',
          'start.oneClient': 'oneClientOpened',
        },
      },
      desktopLoadingClients: {
        on: { 'server.clientsLoaded': 'desktopOpened', 'server.clientsFailed': 'clientsFailed' },
      },
      clientsFailed: { on: { 'clients.retry': 'desktopLoadingClients' } },
      desktopOpened: {
        on: {
          'sidebar.toggle': 'desktopCollapsed',
          // On the desktop a link leaves the menu as it is.
          'menu.select': 'desktopOpened',
          'route.change': 'desktopOpened',
        },
      },
      desktopCollapsed: { on: { 'sidebar.toggle': 'desktopOpened' } },
      desktopRememberedClosed: { on: { 'sidebar.toggle': 'desktopOpened' } },
      mobileClosed: { on: { 'sidebar.toggle': 'mobileOpened' } },
      mobileOpened: {
        on: {
          'sidebar.close': 'mobileClosed',
          'menu.select': 'mobileClosed',
          'route.change': 'mobileClosed',
          'sidebar.toggle': 'mobileClosed',
        },
      },
      oneClientOpened: { on: { 'sidebar.toggle': 'oneClientCollapsed' } },
      oneClientCollapsed: { on: { 'sidebar.toggle': 'oneClientOpened' } },
    },
  }),
);

function expectSidebar(opened: boolean, mobile: boolean): void {
  const state = snapshot();
  expect(state.hasTag('sidebarOpened')).toBe(opened);
  expect(state.hasTag('mobile')).toBe(mobile);
  expect(state.matches({ sidebar: opened ? 'opened' : 'closed' })).toBe(true);
  expect(state.matches({ device: mobile ? 'mobile' : 'desktop' })).toBe(true);
}

function expectSelector(shown: boolean): void {
  expect(isClientSelectorShown(snapshot())).toBe(shown);
}

const testParams: TestParam<SnapshotFrom<typeof layoutModel.logic>, ModelEvent> = {
  states: {
    notStarted: () => undefined,
    desktopLoadingClients: () => {
      expectSidebar(true, false);
      expectSelector(false);
      // Once, and once more after each failure (retry).
      expect(clientRequests).toBe(clientFailures + 1);
      // The first paint does not slide.
      expect(snapshot().context.withoutAnimation).toBe(true);
    },
    clientsFailed: () => {
      expectSidebar(true, false);
      expectSelector(false);
      expect(snapshot().context.clients).toEqual([]);
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: OPTIONS_ERROR, timeout: 5_000 });
    },
    desktopOpened: () => {
      expectSidebar(true, false);
      expectSelector(true);
      expect(snapshot().context.clients.map((client) => client.name)).toEqual(SORTED);
      expect(cookieWrites.at(-1) ?? 'opened').toBe('opened');
    },
    desktopCollapsed: () => {
      expectSidebar(false, false);
      // More than one client, but the menu is collapsed.
      expectSelector(false);
      expect(snapshot().hasTag('clientsAvailable')).toBe(true);
      expect(cookieWrites.at(-1)).toBe('closed');
      expect(snapshot().context.withoutAnimation).toBe(false);
    },
    desktopRememberedClosed: () => {
      expectSidebar(false, false);
      expectSelector(false);
      expect(cookieWrites).toEqual([]);
    },
    mobileClosed: () => {
      expectSidebar(false, true);
      expectSelector(false);
      // Mobile never changes what the desktop remembers.
      expect(cookieWrites).toEqual([]);
    },
    mobileOpened: () => {
      expectSidebar(true, true);
      expectSelector(true);
      expect(cookieWrites).toEqual([]);
      expect(snapshot().context.withoutAnimation).toBe(false);
    },
    oneClientOpened: () => {
      expectSidebar(true, false);
      expectSelector(false);
      expect(clientRequests).toBe(0);
      expect(snapshot().matches({ clients: 'single' })).toBe(true);
    },
    oneClientCollapsed: () => {
      expectSidebar(false, false);
      expectSelector(false);
    },
  },
  events: {
    'start.desktop': () => start({ mobile: false, cookies: '', clientIds: [1, 2] }),
    'start.desktopRemembersClosed': async () => {
      start({ mobile: false, cookies: 'sidebar_status=closed; client_id=1', clientIds: [1, 2] });
      await answerClients(CLIENTS);
    },
    'start.mobile': async () => {
      // A desktop of the same browser left the sidebar open: mobile starts closed anyway.
      start({ mobile: true, cookies: 'sidebar_status=opened', clientIds: [1, 2] });
      await answerClients(CLIENTS);
    },
    'start.oneClient': () => start({ mobile: false, cookies: '', clientIds: [1] }),
    'server.clientsLoaded': () => answerClients(CLIENTS),
    'server.clientsFailed': failClients,
    'clients.retry': () => actor.send({ type: 'clients.retry' }),
    'sidebar.toggle': () => actor.send({ type: 'sidebar.toggle' }),
    'sidebar.close': () => actor.send({ type: 'sidebar.close' }),
    'menu.select': () => actor.send({ type: 'menu.select' }),
    'route.change': () => actor.send({ type: 'route.change', group: '/tenant-connect' }),
  },
};

describe('layoutMachine (model-based)', () => {
  afterEach(() => actor?.stop());

  describeModelCoverage(layoutModel, testParams, { states: Object.keys(testParams.states ?? {}), transitions: 19 });
});

describe('layoutMachine details', () => {
  afterEach(() => actor?.stop());

  it('opens the group of the page shown, and sub-menus open and close', async () => {
    start({ mobile: false, clientIds: [1], openGroup: '/shopper-connect' });
    expect(snapshot().context.openGroups).toEqual(['/shopper-connect']);
    actor.send({ type: 'route.change', group: '/tenants' });
    actor.send({ type: 'route.change', group: '/tenants' });
    actor.send({ type: 'route.change', group: undefined });
    expect(snapshot().context.openGroups).toEqual(['/shopper-connect', '/tenants']);
    actor.send({ type: 'menu.toggleGroup', group: '/shopper-connect' });
    expect(snapshot().context.openGroups).toEqual(['/tenants']);
    actor.send({ type: 'menu.toggleGroup', group: '/shopper-connect' });
    expect(snapshot().context.openGroups).toEqual(['/tenants', '/shopper-connect']);
  });

  it("on mobile, a page change closes the menu and opens the page's group", async () => {
    start({ mobile: true, clientIds: [1] });
    actor.send({ type: 'sidebar.toggle' });
    actor.send({ type: 'route.change', group: '/tenants' });
    expect(snapshot().hasTag('sidebarOpened')).toBe(false);
    expect(snapshot().context.openGroups).toEqual(['/tenants']);
  });

  it('a lookup answering with one client shows no selector', async () => {
    start({ mobile: false, clientIds: [1, 2] });
    await answerClients([{ id: 1, name: 'Only', reporting_currency: 'SGD' }]);
    expect(snapshot().matches({ clients: 'single' })).toBe(true);
    expect(isClientSelectorShown(snapshot())).toBe(false);
  });

  it('writes the 14-day sidebar cookie by default', () => {
    const written: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    Object.defineProperty(document, 'cookie', {
      configurable: true,
      get: () => '',
      set: (value: string) => {
        written.push(value);
      },
    });
    try {
      actor = createActor(layoutMachine.provide({ actors: { fetchClients: fromPromise<Client[]>(async () => []) } }), {
        input: { mobile: false, clientIds: [] },
      }).start();
      actor.send({ type: 'sidebar.toggle' });
      expect(written).toEqual(['sidebar_status=closed; Max-Age=1209600; Path=/; SameSite=Lax']);
    } finally {
      Reflect.deleteProperty(document, 'cookie');
      if (descriptor) Object.defineProperty(Document.prototype, 'cookie', descriptor);
    }
  });
});

describe('layoutMachine: the theme, remembered per user', () => {
  afterEach(() => {
    actor?.stop();
    localStorage.clear();
  });

  function startTheme(input: Partial<LayoutInput>, written: string[] = []): Actor<typeof testMachine> {
    actor = createActor(
      testMachine.provide({
        actions: {
          writeTheme: ({ context }, params: { theme: Theme }) => {
            written.push(`${context.userId}:${params.theme}`);
          },
        },
      }),
      { input: { mobile: false, clientIds: [1], ...input } },
    ).start();
    return actor;
  }

  it('starts light when the user chose nothing and the browser prefers no dark scheme', () => {
    startTheme({ userId: 7 });
    expect(themeOf(snapshot())).toBe('light');
    expect(snapshot().matches({ theme: 'light' })).toBe(true);
    expect(document.body.classList.contains('bp6-dark')).toBe(false);
  });

  it("follows the browser's preferred scheme when the user chose nothing, and the user's choice over it", () => {
    startTheme({ userId: 7, prefersDark: true });
    expect(themeOf(snapshot())).toBe('dark');
    actor.stop();
    startTheme({ userId: 7, prefersDark: true, theme: 'light' });
    expect(themeOf(snapshot())).toBe('light');
  });

  it('toggles between light and dark, remembering each choice for the user, and shows the body dark meanwhile', () => {
    const written: string[] = [];
    startTheme({ userId: 7 }, written);
    actor.send({ type: 'theme.toggle' });
    expect(themeOf(snapshot())).toBe('dark');
    expect(document.body.classList.contains('bp6-dark')).toBe(true);
    expect(document.body.style.colorScheme).toBe('dark');
    actor.send({ type: 'theme.toggle' });
    expect(themeOf(snapshot())).toBe('light');
    expect(document.body.classList.contains('bp6-dark')).toBe(false);
    expect(written).toEqual(['7:dark', '7:light']);
  });

  it('a remembered dark theme shows the body dark until the layout ends (signed out: the sign-in page is light)', () => {
    startTheme({ userId: 7, theme: 'dark' });
    expect(document.body.classList.contains('bp6-dark')).toBe(true);
    actor.stop();
    expect(document.body.classList.contains('bp6-dark')).toBe(false);
    expect(document.body.style.colorScheme).toBe('');
  });

  it("writes localStorage under the user's own key by default, so two accounts of one browser keep their own", () => {
    actor = createActor(testMachine, { input: { mobile: false, clientIds: [1], userId: 7 } }).start();
    actor.send({ type: 'theme.toggle' });
    expect(localStorage.getItem(themeStorageKey(7))).toBe('dark');
    expect(readStoredTheme(7)).toBe('dark');
    expect(readStoredTheme(8)).toBeUndefined();
    actor.stop();
    actor = createActor(testMachine, {
      input: { mobile: false, clientIds: [1], userId: 8, theme: readStoredTheme(8) },
    }).start();
    expect(themeOf(snapshot())).toBe('light');
    actor.send({ type: 'theme.toggle' });
    actor.send({ type: 'theme.toggle' });
    expect(localStorage.getItem(themeStorageKey(8))).toBe('light');
    expect(readStoredTheme(7)).toBe('dark');
  });
});
