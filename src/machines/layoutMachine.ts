import { assign, emit, fromCallback, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type Client, getClients } from '../api/lookup';
import { readSidebarCookie, type SidebarStatus, sidebarCookieString } from '../domain/cookies';
import { OPTIONS_FETCH_WHAT } from '../domain/filterOptions';
import { sortClients } from '../domain/menu';
import { loadFailureNotice, type Notice } from '../domain/messages';
import { initialTheme, type Theme } from '../domain/theme';
import { applyDarkDocument, writeStoredTheme } from './documentTheme';

/**
 * The signed-in frame (§2, §4): the sidebar (open or closed, with or without animation), the device mode
 * (mobile by user agent), the sidebar's open groups, and the clients of the client selector.
 *
 * Parallel regions:
 *   device: desktop | mobile (from the input; tag `mobile`)
 *   sidebar: checking ─> opened | closed   (mobile: closed; desktop: the `sidebar_status` cookie, else opened)
 *     opened (tag `sidebarOpened`) ── sidebar.toggle ─> closed (desktop: the cookie remembers it)
 *                                  ── sidebar.close ─> closed (the mobile close button and backdrop)
 *                                  ── menu.select / route.change, on mobile ─> closed (a link, even the current one)
 *     closed ── sidebar.toggle ─> opened (desktop: remembered)
 *   clients: checking ─> single (the user has at most one client: no selector)
 *                      | loading ─> loaded (tag `clientsAvailable`: more than one, sorted case-insensitively)
 *                                 | single | failure (a toast) ── clients.retry ─> loading
 *   theme: checking ─> light | dark   (the user's theme remembered in this browser, else the browser's scheme)
 *     light ── theme.toggle ─> dark (tag `darkTheme`; remembered for the user) ── theme.toggle ─> light
 *     dark invokes `darkDocument`: Blueprint's dark class on the body while the state lasts (so also not once the
 *     user signs out: the sign-in page is light)
 *
 * Root events: menu.toggleGroup (opens or closes a sub-menu of the open sidebar), route.change (also opens
 * the group of the page shown). `withoutAnimation` is true until the user first moves the sidebar (the
 * first paint does not slide). The cookie is written by the injected action `writeSidebarCookie`, the theme by
 * `writeTheme` (localStorage, keyed by the user's id).
 */

export interface LayoutInput {
  /** `isMobileUserAgent(navigator.userAgent)`. */
  mobile: boolean;
  /** `document.cookie` when the layout starts. */
  cookies?: string;
  /** The clients the user may see (user info `clients`). */
  clientIds?: readonly number[];
  /** The sidebar group of the page shown first (open from the start). */
  openGroup?: string | undefined;
  /** The signed-in user's id: the theme is remembered per user. */
  userId?: number;
  /** The theme the user chose in this browser (`readStoredTheme`), if any. */
  theme?: Theme | undefined;
  /** The browser prefers a dark scheme: the theme when the user chose none. */
  prefersDark?: boolean;
}

export interface LayoutContext {
  mobile: boolean;
  /** The cookie's sidebar state when the layout started. */
  rememberedStatus: SidebarStatus | undefined;
  withoutAnimation: boolean;
  /** The sidebar groups (their paths) shown open. */
  openGroups: string[];
  clientCount: number;
  /** The clients of the selector, sorted case-insensitively by name. */
  clients: Client[];
  userId: number | undefined;
  /** The theme when the layout started. */
  initialTheme: Theme;
}

export type LayoutEvent =
  | { type: 'sidebar.toggle' }
  | { type: 'sidebar.close' }
  /** A link of the sidebar was clicked (the current page's included). */
  | { type: 'menu.select' }
  | { type: 'menu.toggleGroup'; group: string }
  /** The app shows another page; `group` is the sidebar group listing it. */
  | { type: 'route.change'; group: string | undefined }
  | { type: 'clients.retry' }
  /** The theme toggle: light <-> dark, remembered for the user. */
  | { type: 'theme.toggle' };

export type LayoutSnapshot = SnapshotFrom<typeof layoutMachine>;

/** §2: the client selector shows only with more than one client and the menu open. */
export function isClientSelectorShown(snapshot: Pick<LayoutSnapshot, 'hasTag'>): boolean {
  return snapshot.hasTag('clientsAvailable') && snapshot.hasTag('sidebarOpened');
}

/** The theme shown now. */
export function themeOf(snapshot: Pick<LayoutSnapshot, 'hasTag'>): Theme {
  return snapshot.hasTag('darkTheme') ? 'dark' : 'light';
}

export const layoutMachine = setup({
  types: {
    context: {} as LayoutContext,
    events: {} as LayoutEvent,
    input: {} as LayoutInput,
    emitted: {} as Notice,
    tags: {} as 'mobile' | 'sidebarOpened' | 'clientsAvailable' | 'darkTheme',
  },
  actors: {
    fetchClients: fromPromise<Client[]>(({ signal }) => getClients({ signal })),
    /** Injected effect: the document is dark while this runs. */
    darkDocument: fromCallback(() => applyDarkDocument()),
  },
  guards: {
    isMobile: ({ context }) => context.mobile,
    isDesktop: ({ context }) => !context.mobile,
    isRememberedClosed: ({ context }) => context.rememberedStatus === 'closed',
    hasSeveralClientIds: ({ context }) => context.clientCount > 1,
    hasSeveralClients: (_, params: { clients: readonly Client[] }) => params.clients.length > 1,
    startsDark: ({ context }) => context.initialTheme === 'dark',
  },
  actions: {
    /** Injected effect: remembers the sidebar state (§4) for 14 days. */
    writeSidebarCookie: (_, params: { status: SidebarStatus }) => {
      if (typeof document === 'undefined') return;
      // biome-ignore lint/suspicious/noDocumentCookie: the one place that writes the sidebar cookie
      document.cookie = sidebarCookieString(params.status);
    },
    /** Injected effect: remembers the user's theme in this browser. */
    writeTheme: ({ context }, params: { theme: Theme }) => {
      if (context.userId !== undefined) writeStoredTheme(context.userId, params.theme);
    },
    setAnimated: assign({ withoutAnimation: false }),
    toggleGroup: assign(({ context }, params: { group: string }) => ({
      openGroups: context.openGroups.includes(params.group)
        ? context.openGroups.filter((group) => group !== params.group)
        : [...context.openGroups, params.group],
    })),
    openGroup: assign(({ context }, params: { group: string | undefined }) => {
      const { group } = params;
      if (group === undefined || context.openGroups.includes(group)) return {};
      return { openGroups: [...context.openGroups, group] };
    }),
    setClients: assign((_, params: { clients: readonly Client[] }) => ({ clients: sortClients(params.clients) })),
    resetClients: assign({ clients: [] }),
    notifyClientsFailure: emit(loadFailureNotice(OPTIONS_FETCH_WHAT)),
  },
}).createMachine({
  id: 'layout',
  type: 'parallel',
  context: ({ input }) => ({
    mobile: input.mobile,
    rememberedStatus: readSidebarCookie(input.cookies ?? ''),
    withoutAnimation: true,
    openGroups: input.openGroup === undefined ? [] : [input.openGroup],
    clientCount: input.clientIds?.length ?? 0,
    clients: [],
    userId: input.userId,
    initialTheme: initialTheme(input.theme, input.prefersDark ?? false),
  }),
  on: {
    'menu.toggleGroup': { actions: { type: 'toggleGroup', params: ({ event }) => ({ group: event.group }) } },
    'route.change': { actions: { type: 'openGroup', params: ({ event }) => ({ group: event.group }) } },
  },
  states: {
    device: {
      initial: 'checking',
      states: {
        checking: { always: [{ guard: 'isMobile', target: 'mobile' }, { target: 'desktop' }] },
        desktop: {},
        /** A phone or tablet (user agent): the sidebar is a drawer over the page. */
        mobile: { tags: ['mobile'] },
      },
    },
    sidebar: {
      initial: 'checking',
      states: {
        checking: {
          always: [
            { guard: 'isMobile', target: 'closed' },
            { guard: 'isRememberedClosed', target: 'closed' },
            { target: 'opened' },
          ],
        },
        opened: {
          tags: ['sidebarOpened'],
          on: {
            'sidebar.toggle': [
              {
                guard: 'isDesktop',
                target: 'closed',
                actions: ['setAnimated', { type: 'writeSidebarCookie', params: { status: 'closed' } }],
              },
              { target: 'closed', actions: 'setAnimated' },
            ],
            'sidebar.close': { target: 'closed', actions: 'setAnimated' },
            'menu.select': { guard: 'isMobile', target: 'closed', actions: 'setAnimated' },
            // (Handled here, the root's route.change does not run: this one opens the group too.)
            'route.change': {
              guard: 'isMobile',
              target: 'closed',
              actions: ['setAnimated', { type: 'openGroup', params: ({ event }) => ({ group: event.group }) }],
            },
          },
        },
        closed: {
          on: {
            'sidebar.toggle': [
              {
                guard: 'isDesktop',
                target: 'opened',
                actions: ['setAnimated', { type: 'writeSidebarCookie', params: { status: 'opened' } }],
              },
              { target: 'opened', actions: 'setAnimated' },
            ],
          },
        },
      },
    },
    clients: {
      initial: 'checking',
      states: {
        checking: { always: [{ guard: 'hasSeveralClientIds', target: 'loading' }, { target: 'single' }] },
        /** One client or none: no selector. */
        single: {},
        loading: {
          invoke: {
            src: 'fetchClients',
            onDone: [
              {
                guard: { type: 'hasSeveralClients', params: ({ event }) => ({ clients: event.output }) },
                target: 'loaded',
                actions: { type: 'setClients', params: ({ event }) => ({ clients: event.output }) },
              },
              { target: 'single', actions: { type: 'setClients', params: ({ event }) => ({ clients: event.output }) } },
            ],
            onError: { target: 'failure', actions: ['resetClients', 'notifyClientsFailure'] },
          },
        },
        /** More than one client: the selector can show. */
        loaded: { tags: ['clientsAvailable'] },
        failure: { on: { 'clients.retry': { target: 'loading' } } },
      },
    },
    theme: {
      initial: 'checking',
      states: {
        checking: { always: [{ guard: 'startsDark', target: 'dark' }, { target: 'light' }] },
        light: {
          on: { 'theme.toggle': { target: 'dark', actions: { type: 'writeTheme', params: { theme: 'dark' } } } },
        },
        dark: {
          tags: ['darkTheme'],
          invoke: { src: 'darkDocument' },
          on: { 'theme.toggle': { target: 'light', actions: { type: 'writeTheme', params: { theme: 'light' } } } },
        },
      },
    },
  },
});
