import {
  type AnyActorRef,
  type AnyStateMachine,
  assign,
  type EventObject,
  emit,
  enqueueActions,
  fromCallback,
  setup,
} from 'xstate';
import type { UserInfo } from '../api/auth';
import { hasDatePickerLimitation } from '../domain/dateLimits';
import { isMobileUserAgent } from '../domain/device';
import type { FilterPageConfig } from '../domain/filterHeader';
import { isInspectorShortcut } from '../domain/inspector';
import { menuGroupOf, sidebarMenu } from '../domain/menu';
import type { Notice } from '../domain/messages';
import { type AppLocation, hrefOf, isPublicPath, ROOT_PATH } from '../domain/navigation';
import { canInspectMachines, type RouteNode } from '../domain/permissions';
import type { Theme } from '../domain/theme';
import { authMachine, sessionStatusOf } from './authMachine';
import { prefersDarkScheme, readStoredTheme } from './documentTheme';
import { filterHeaderMachine } from './filterHeaderMachine';
import { browserHistory, type HistoryPort } from './historyPort';
import { inspectorMachine } from './inspectorMachine';
import { layoutMachine } from './layoutMachine';
import { navigationGuardMachine } from './navigationGuardMachine';
import { type ActorSystemLike, APP_SYSTEM_IDS, type AppSystemActors, appActor } from './systemIds';

/**
 * The root of the app: it owns the actor system. Always running: `auth` (the session and the signed-out flows)
 * and `navigation` (the guard deciding every address), linked by `sessionLink`, with `addressBar` keeping the
 * browser's address and the guard's location in step. Once a user is signed in (`signedIn`), the signed-in
 * frame's actors run too: `layout` (sidebar, device, clients, theme), the one `filterHeader` of every page (its
 * URL writes are requests to the guard) and the machine `inspector`; `pageSync` tells them when the page
 * changes. Every notice of these actors is emitted again by the app as `notify`, for one toaster. Page machines
 * find the header with `system.get('filterHeader')`.
 *
 *   signedOut ── session.signedIn ──> signedIn ── session.signedOut ──> signedOut
 *                                      └── session.signedIn (another user) ──> signedIn (started again)
 */

export { APP_SYSTEM_IDS };

/** The filters a page at `path` asks of the header (the route table's), among the user's routes. */
export type PageFiltersOf = (routes: readonly RouteNode[], path: string) => Partial<FilterPageConfig>;

export interface AppInput {
  routeTable: readonly RouteNode[];
  pageFilters: PageFiltersOf;
  /** The address bar (default: the browser's). */
  history?: HistoryPort;
  /** The signed-in frame's day, `YYYY-MM-DD` (default: the user info's `today`, the malls' latest day; else the browser's). */
  today?: string;
  /** A phone or tablet (the user agent): default read from `navigator`. */
  mobile?: boolean;
  /** The cookies when a user signs in: default `document.cookie`. */
  readCookies?: () => string;
  /** The theme a user chose in this browser, read when they sign in: default from `localStorage`. */
  readTheme?: (userId: number) => Theme | undefined;
  /** The browser prefers a dark scheme (the theme of a user who chose none): default `matchMedia`. */
  prefersDark?: () => boolean;
}

export interface AppMachineContext {
  routeTable: readonly RouteNode[];
  pageFilters: PageFiltersOf;
  history: HistoryPort;
  today: string | undefined;
  mobile: boolean;
  readCookies: () => string;
  readTheme: (userId: number) => Theme | undefined;
  prefersDark: () => boolean;
  /** The signed-in user (undefined when signed out). */
  user: UserInfo | undefined;
  page: RunningPage | undefined;
}

export type AppEvent =
  | { type: 'session.signedIn'; user: UserInfo }
  | { type: 'session.signedOut' }
  | { type: 'app.notify'; notice: Notice }
  /**
   * A page's view opens its machine in the app's system (it finds the filter header there), with the machine's
   * input if it takes one.
   */
  | { type: 'page.open'; logic: AnyStateMachine; input?: unknown }
  | { type: 'page.close'; logic: AnyStateMachine };

/** The machine of the page shown, run by the app. */
export interface RunningPage {
  readonly logic: AnyStateMachine;
  readonly ref: AnyActorRef;
}

export type AppEmitted = Notice;

function locationOf(system: ActorSystemLike): AppLocation {
  return appActor(system, 'navigation')?.getSnapshot().context.location ?? { path: ROOT_PATH, search: '' };
}

function routesOf(system: ActorSystemLike): readonly RouteNode[] {
  return appActor(system, 'navigation')?.getSnapshot().context.routes ?? [];
}

function isMobileDefault(): boolean {
  return typeof navigator !== 'undefined' && isMobileUserAgent(navigator.userAgent);
}

function documentCookies(): string {
  return typeof document === 'undefined' ? '' : document.cookie;
}

export const appMachine = setup({
  types: {
    input: {} as AppInput,
    context: {} as AppMachineContext,
    events: {} as AppEvent,
    emitted: {} as AppEmitted,
  },
  actors: {
    auth: authMachine,
    navigation: navigationGuardMachine,
    layout: layoutMachine,
    filterHeader: filterHeaderMachine,
    inspector: inspectorMachine,
    /**
     * The guard decides every address: the one the browser opened with and each one it moves to on its own
     * (back, forward); the browser follows each decision (push or replace), also several within one task.
     */
    addressBar: fromCallback<EventObject, { history: HistoryPort }>(({ input, system }) => {
      const { history } = input;
      const guard = appActor(system, 'navigation');
      if (!guard) return () => undefined;
      let followed = -1;
      const subscription = guard.subscribe((snapshot) => {
        const { location, navigationId, replace } = snapshot.context;
        if (!location || navigationId === followed) return;
        followed = navigationId;
        const target = hrefOf(location);
        if (target === history.current()) return;
        if (replace) history.replace(target);
        else history.push(target);
      });
      const stopListening = history.listen((href) => guard.send({ type: 'location.change', href }));
      guard.send({ type: 'location.change', href: history.current() });
      return () => {
        subscription.unsubscribe();
        stopListening();
      };
    }),
    /**
     * Auth and guard in step: the guard learns of every change of the session, a flow's next page is a
     * navigation request, a session whose routes cannot be generated ends; the app learns who is signed in.
     */
    sessionLink: fromCallback<AppEvent>(({ system, sendBack }) => {
      const auth = appActor(system, 'auth');
      const guard = appActor(system, 'navigation');
      if (!auth || !guard) return () => undefined;
      let toldGuard: { status: string; user: UserInfo | undefined } | undefined;
      let toldApp: UserInfo | undefined;
      /** The guard learns of each change of the session. */
      const tellGuard = (snapshot: ReturnType<AppSystemActors['auth']['getSnapshot']>) => {
        const status = sessionStatusOf(snapshot);
        const user = status === 'signedIn' ? snapshot.context.user : undefined;
        if (toldGuard && toldGuard.status === status && toldGuard.user === user) return;
        toldGuard = { status, user };
        guard.send({ type: 'session.update', status, user });
        tellApp();
      };
      /**
       * The app starts the signed-in frame once the guard has let the user onto a page of the layout (so the
       * frame starts with that page's address), and ends it when the session ends.
       */
      const tellApp = () => {
        const user = toldGuard?.status === 'signedIn' ? toldGuard.user : undefined;
        const guardSnapshot = guard.getSnapshot();
        const { location, routes } = guardSnapshot.context;
        const onLayoutPage =
          guardSnapshot.matches('idle') &&
          routes !== undefined &&
          location !== undefined &&
          !isPublicPath(location.path);
        if (user === toldApp || (user !== undefined && !onLayoutPage)) return;
        toldApp = user;
        sendBack(user ? { type: 'session.signedIn', user } : { type: 'session.signedOut' });
      };
      const subscriptions = [
        auth.subscribe(tellGuard),
        guard.subscribe(tellApp),
        auth.on('navigate', ({ to }) => guard.send({ type: 'navigation.request', href: to })),
        auth.on('notify', (notice) => sendBack({ type: 'app.notify', notice })),
        guard.on('session.invalid', () => auth.send({ type: 'logout' })),
      ];
      tellGuard(auth.getSnapshot());
      return () => {
        for (const subscription of subscriptions) subscription.unsubscribe();
      };
    }),
    /**
     * The signed-in frame follows the page: a new page gives the header its filters (`page.change`) and the
     * sidebar its open group (`route.change`); a new address (back, forward, a link) gives the header its
     * query (`url.change`). The notices of the layout and the header become the app's.
     */
    pageSync: fromCallback<AppEvent, { pageFilters: PageFiltersOf }>(({ input, system, sendBack }) => {
      const guard = appActor(system, 'navigation');
      const header = appActor(system, 'filterHeader');
      const layout = appActor(system, 'layout');
      if (!guard || !header || !layout) return () => undefined;
      let told = locationOf(system);
      const subscriptions = [
        guard.subscribe((snapshot) => {
          const { location, routes } = snapshot.context;
          if (!location) return;
          const previous = told;
          told = location;
          if (previous.path !== location.path) {
            header.send({ type: 'page.change', page: input.pageFilters(routes ?? [], location.path) });
            layout.send({ type: 'route.change', group: menuGroupOf(sidebarMenu(routes ?? []), location.path) });
          }
          if (previous.path !== location.path || previous.search !== location.search) {
            header.send({ type: 'url.change', search: location.search });
          }
        }),
        header.on('notify', (notice) => sendBack({ type: 'app.notify', notice })),
        layout.on('notify', (notice) => sendBack({ type: 'app.notify', notice })),
      ];
      return () => {
        for (const subscription of subscriptions) subscription.unsubscribe();
      };
    }),
    /** The keyboard shortcut that opens and closes the machine inspector. */
    inspectorShortcut: fromCallback(({ system }) => {
      if (typeof window === 'undefined') return () => undefined;
      const onKeyDown = (event: KeyboardEvent) => {
        if (!isInspectorShortcut(event)) return;
        event.preventDefault();
        appActor(system, 'inspector')?.send({ type: 'inspector.toggle' });
      };
      window.addEventListener('keydown', onKeyDown);
      return () => window.removeEventListener('keydown', onKeyDown);
    }),
  },
  guards: {
    isAnotherUser: ({ context, event }) => event.type === 'session.signedIn' && event.user.id !== context.user?.id,
  },
  actions: {
    setUser: assign({ user: ({ event }) => (event.type === 'session.signedIn' ? event.user : undefined) }),
    clearUser: assign({ user: undefined }),
    /** The page's machine starts (a page shown again gets a new one); the previous page's stops. */
    openPage: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'page.open') return;
      if (context.page) enqueue.stopChild(context.page.ref);
      enqueue.assign({
        page: ({ spawn }) => ({ logic: event.logic, ref: spawn(event.logic, { input: event.input }) }),
      });
    }),
    closePage: enqueueActions(({ context, event, enqueue }) => {
      if (!context.page || (event.type === 'page.close' && event.logic !== context.page.logic)) return;
      enqueue.stopChild(context.page.ref);
      enqueue.assign({ page: undefined });
    }),
    notify: emit(({ event }) => {
      if (event.type !== 'app.notify') throw new Error(`notify on ${event.type}`);
      return event.notice;
    }),
  },
}).createMachine({
  id: 'app',
  context: ({ input }) => ({
    routeTable: input.routeTable,
    pageFilters: input.pageFilters,
    history: input.history ?? browserHistory,
    today: input.today,
    mobile: input.mobile ?? isMobileDefault(),
    readCookies: input.readCookies ?? documentCookies,
    readTheme: input.readTheme ?? readStoredTheme,
    prefersDark: input.prefersDark ?? prefersDarkScheme,
    user: undefined,
    page: undefined,
  }),
  invoke: [
    { id: 'auth', systemId: APP_SYSTEM_IDS.auth, src: 'auth' },
    {
      id: 'navigationGuard',
      systemId: APP_SYSTEM_IDS.navigation,
      src: 'navigation',
      input: ({ context }) => ({ routeTable: context.routeTable }),
    },
    { id: 'sessionLink', src: 'sessionLink' },
    { id: 'addressBar', src: 'addressBar', input: ({ context }) => ({ history: context.history }) },
  ],
  on: {
    'app.notify': { actions: 'notify' },
  },
  initial: 'signedOut',
  states: {
    signedOut: {
      on: { 'session.signedIn': { target: 'signedIn', actions: 'setUser' } },
    },
    signedIn: {
      exit: ['closePage', 'clearUser'],
      invoke: [
        {
          id: 'layout',
          systemId: APP_SYSTEM_IDS.layout,
          src: 'layout',
          input: ({ context, self }) => {
            const path = locationOf(self.system).path;
            const userId = context.user?.id;
            return {
              mobile: context.mobile,
              cookies: context.readCookies(),
              ...(userId === undefined ? {} : { userId, theme: context.readTheme(userId) }),
              prefersDark: context.prefersDark(),
              clientIds: context.user?.clients ?? [],
              openGroup: menuGroupOf(sidebarMenu(routesOf(self.system)), path),
            };
          },
        },
        {
          id: 'filterHeader',
          systemId: APP_SYSTEM_IDS.filterHeader,
          src: 'filterHeader',
          input: ({ context, self }) => {
            const location = locationOf(self.system);
            // The header's today is the malls' (the server's `today` of the user info), never the browser's.
            const today = context.today ?? context.user?.today;
            return {
              ...(today === undefined ? {} : { today }),
              search: location.search,
              cookies: context.readCookies(),
              clientIds: context.user?.clients ?? [],
              defaultClientId: context.user?.client_id ?? null,
              limited: context.user ? hasDatePickerLimitation(context.user) : false,
              mobile: context.mobile,
              page: context.pageFilters(routesOf(self.system), location.path),
            };
          },
        },
        {
          id: 'inspector',
          systemId: APP_SYSTEM_IDS.inspector,
          src: 'inspector',
          input: ({ context, self }) => ({
            allowed: context.user ? canInspectMachines(context.user) : false,
            search: locationOf(self.system).search,
          }),
        },
        { id: 'pageSync', src: 'pageSync', input: ({ context }) => ({ pageFilters: context.pageFilters }) },
        { id: 'inspectorShortcut', src: 'inspectorShortcut' },
      ],
      on: {
        'session.signedOut': { target: 'signedOut' },
        'page.open': { actions: 'openPage' },
        'page.close': { actions: 'closePage' },
        'session.signedIn': { guard: 'isAnotherUser', target: 'signedIn', reenter: true, actions: 'setUser' },
      },
    },
  },
});
