import { and, assign, emit, fromPromise, setup } from 'xstate';
import type { UserInfo } from '../api/auth';
import {
  type AppLocation,
  hrefOf,
  isEntryLocation,
  isPublicPath,
  isReachableFrom,
  LOGIN_PATH,
  loginLocationFor,
  NOT_FOUND_PATH,
  parseLocation,
  ROOT_PATH,
  safeReturnPath,
  searchParam,
} from '../domain/navigation';
import { findPage, landingPageFor, permittedRoutes, type RouteNode } from '../domain/permissions';
import type { SessionStatus } from './authMachine';

/**
 * The navigation guard (§2). Every navigation of the app — a link, a flow's next page, the browser's
 * back and forward buttons, the first load — is a request that this machine decides; the view only
 * shows `context.location` and brings the browser's address to it (`replace` says how).
 *
 *   idle ── navigation.request / location.change / session.update ──> deciding
 *   deciding ── (session being checked) ──> waitingForSession ── session.update ──> deciding
 *            ── (signed in, no routes yet) ──> generatingRoutes ──> deciding | idle at /login (failure)
 *            ── (a redirect) ──> deciding again with the new location
 *            ── (passes or stays) ──> idle
 *
 * The rules, in order (each a guard below):
 *  1. /update-password, /mfa-validation and /reset-password-success open only from the preceding step of
 *     their flow; otherwise the user stays where they were (on a fresh load: /login).
 *  2. Without a session, any non-public path goes to /login?redirect=<wanted path with its query>;
 *     public paths pass.
 *  3. With a session but no routes yet, routes are generated from roles and permissions and the
 *     navigation is retried; on failure the user goes to /login (and the session is ended).
 *  4. A signed-in user opening /login, /sso, /reset-password without a validationKey (or
 *     /mfa-validation once the code is verified) goes to the wanted path, else the landing page.
 *  5. Other public paths pass. / goes to the landing page. A known route passes; any other path goes to /404.
 *
 * Unsaved changes: while the page holds changes not saved yet (an editor tells the guard with
 * `page.unsavedChanges`), a link or a flow's navigation to another path first asks the user:
 *
 *   idle ── navigation.request (another path, unsaved changes) ──> confirmingLeave
 *   confirmingLeave ── leave.confirm ──> deciding (the changes are dropped) ;  leave.cancel ──> idle (stays)
 *
 * A session change (signing out, the session ending) does not ask: it cannot wait for an answer.
 */

export interface SessionInfo {
  status: SessionStatus;
  user: UserInfo | undefined;
}

/** A navigation to decide. `history`: the browser already shows it (first load, back, forward). */
export interface NavigationRequest {
  location: AppLocation;
  source: 'app' | 'history';
  replace: boolean;
}

export interface NavigationGuardContext {
  routeTable: readonly RouteNode[];
  session: SessionInfo;
  /** The user's routes, generated once per signed-in user. */
  routes: RouteNode[] | undefined;
  landingPage: string;
  /** The location the app shows (it passed the guard); undefined before the first decision. */
  location: AppLocation | undefined;
  request: NavigationRequest | undefined;
  /** Where a signed-out visitor wanted to go (the `redirect` of /login), opened after sign-in. */
  wanted: string | undefined;
  /** How the view brings the browser to `location`: replace the entry, or push a new one. */
  replace: boolean;
  /** Changes with every decision, so the view re-syncs the browser even when `location` stays. */
  navigationId: number;
  /** Redirects within one decision (a safety stop against loops). */
  redirects: number;
  /** The page shown holds changes not saved yet: leaving it asks first. */
  unsavedChanges: boolean;
  /** The navigation waiting for the user's answer in `confirmingLeave`. */
  pendingLeave: NavigationRequest | undefined;
}

export interface NavigationGuardInput {
  routeTable: readonly RouteNode[];
}

export type NavigationGuardEvent =
  | { type: 'navigation.request'; href: string; replace?: boolean }
  | { type: 'location.change'; href: string }
  | { type: 'session.update'; status: SessionStatus; user: UserInfo | undefined }
  /** From the page: it holds changes not saved yet (or no longer). */
  | { type: 'page.unsavedChanges'; unsaved: boolean }
  /** The user's answer to 'leave and lose the unsaved changes?'. */
  | { type: 'leave.confirm' }
  | { type: 'leave.cancel' };

/** Emitted when the user's routes cannot be generated: the session must end. */
export interface NavigationSessionInvalid {
  type: 'session.invalid';
}

const MAX_REDIRECTS = 8;

function requestedLocation(context: NavigationGuardContext): AppLocation {
  return context.request?.location ?? context.location ?? { path: ROOT_PATH, search: '' };
}

/** Where a signed-in user opening an entry page goes: the wanted path, else the landing page. */
function afterSignInLocation(context: NavigationGuardContext): AppLocation {
  const to = requestedLocation(context);
  const fromQuery = to.path === LOGIN_PATH ? safeReturnPath(searchParam(to, 'redirect')) : undefined;
  return parseLocation(fromQuery ?? context.wanted ?? context.landingPage);
}

export const navigationGuardMachine = setup({
  types: {
    context: {} as NavigationGuardContext,
    events: {} as NavigationGuardEvent,
    input: {} as NavigationGuardInput,
    emitted: {} as NavigationSessionInvalid,
  },
  actors: {
    generateRoutes: fromPromise<RouteNode[], { routeTable: readonly RouteNode[]; user: UserInfo }>(async ({ input }) =>
      permittedRoutes(input.routeTable, input.user),
    ),
  },
  guards: {
    isRequestMissing: ({ context }) => context.request === undefined,
    isRedirectLoop: ({ context }) => context.redirects > MAX_REDIRECTS,
    isSessionChecking: ({ context }) => context.session.status === 'checking',
    isFlowStepSkipped: ({ context }) => !isReachableFrom(requestedLocation(context), context.location),
    isFreshLoad: ({ context }) => context.location === undefined,
    isSignedOut: ({ context }) => context.session.status !== 'signedIn' || context.session.user === undefined,
    isPublicPage: ({ context }) => isPublicPath(requestedLocation(context).path),
    isRoutesMissing: ({ context }) => context.routes === undefined,
    isEntryPage: ({ context }) => isEntryLocation(requestedLocation(context)),
    isRootWithLandingPage: ({ context }) =>
      requestedLocation(context).path === ROOT_PATH && context.landingPage !== ROOT_PATH,
    isRoot: ({ context }) => requestedLocation(context).path === ROOT_PATH,
    isKnownRoute: ({ context }) => findPage(context.routes ?? [], requestedLocation(context).path) !== undefined,
    /** An app navigation to another path would lose the page's unsaved changes. */
    losesUnsavedChanges: ({ context, event }) =>
      event.type === 'navigation.request' &&
      context.unsavedChanges &&
      context.location !== undefined &&
      parseLocation(event.href).path !== context.location.path,
    isDifferentLocation: ({ context, event }) =>
      event.type === 'location.change' && (context.location === undefined || hrefOf(context.location) !== event.href),
  },
  actions: {
    setPendingLeave: assign(({ event }) =>
      event.type === 'navigation.request'
        ? {
            pendingLeave: {
              location: parseLocation(event.href),
              source: 'app' as const,
              replace: event.replace === true,
            },
          }
        : {},
    ),
    leaveConfirmed: assign(({ context }) => ({
      request: context.pendingLeave,
      pendingLeave: undefined,
      unsavedChanges: false,
      redirects: 0,
    })),
    setRequest: assign(({ event }) => {
      if (event.type === 'navigation.request') {
        return {
          request: { location: parseLocation(event.href), source: 'app' as const, replace: event.replace === true },
          redirects: 0,
        };
      }
      if (event.type === 'location.change') {
        return {
          request: { location: parseLocation(event.href), source: 'history' as const, replace: true },
          redirects: 0,
        };
      }
      return {};
    }),
    /** The session changed: decide again on the pending request, or on the location shown. */
    setSession: assign(({ context, event }) => {
      if (event.type !== 'session.update') return {};
      const sameUser =
        event.status === context.session.status &&
        event.user !== undefined &&
        event.user.id === context.session.user?.id;
      const request: NavigationRequest | undefined =
        context.request ??
        (context.location ? { location: context.location, source: 'history', replace: true } : undefined);
      return {
        session: { status: event.status, user: event.user },
        pendingLeave: undefined,
        routes: sameUser ? context.routes : undefined,
        landingPage: sameUser ? context.landingPage : ROOT_PATH,
        request,
        redirects: 0,
      };
    }),
    setRoutes: assign(({ context }, params: { routes: RouteNode[] }) => ({
      routes: params.routes,
      landingPage: context.session.user ? landingPageFor(params.routes, context.session.user) : ROOT_PATH,
    })),
    /**
     * Replaces the request with another location and counts the redirect. An app navigation that is
     * redirected still adds one history entry; a browser one replaces the address it shows.
     */
    setRedirect: assign(({ context }, params: { to: AppLocation }) => ({
      request: {
        location: params.to,
        source: context.request?.source ?? 'history',
        replace: context.request?.replace ?? true,
      },
      redirects: context.redirects + 1,
    })),
    /** The request passes: the app shows it. */
    setLocation: assign(({ context }) => {
      const request = context.request;
      if (!request) return {};
      return {
        location: request.location,
        replace: request.source === 'history' || request.replace,
        navigationId: context.navigationId + 1,
        request: undefined,
      };
    }),
    /** The request is refused: the app keeps its location (the browser is brought back to it). */
    resetRequest: assign(({ context }) => ({
      request: undefined,
      replace: true,
      navigationId: context.navigationId + 1,
    })),
    /** /login remembers its `redirect` for after the sign-in (MFA may come in between). */
    setWanted: assign(({ context }) => {
      const to = requestedLocation(context);
      if (to.path !== LOGIN_PATH) return {};
      return { wanted: safeReturnPath(searchParam(to, 'redirect')) };
    }),
    resetWanted: assign({ wanted: undefined }),
    emitSessionInvalid: emit({ type: 'session.invalid' as const }),
  },
}).createMachine({
  id: 'navigationGuard',
  context: ({ input }) => ({
    routeTable: input.routeTable,
    session: { status: 'checking', user: undefined },
    routes: undefined,
    landingPage: ROOT_PATH,
    location: undefined,
    request: undefined,
    wanted: undefined,
    replace: true,
    navigationId: 0,
    redirects: 0,
    unsavedChanges: false,
    pendingLeave: undefined,
  }),
  on: {
    'navigation.request': [
      { guard: 'losesUnsavedChanges', target: '.confirmingLeave', actions: 'setPendingLeave' },
      { target: '.deciding', actions: 'setRequest' },
    ],
    'page.unsavedChanges': { actions: assign(({ event }) => ({ unsavedChanges: event.unsaved })) },
    'location.change': { guard: 'isDifferentLocation', target: '.deciding', actions: 'setRequest' },
    'session.update': { target: '.deciding', actions: 'setSession' },
  },
  initial: 'idle',
  states: {
    idle: {},
    /** 'Leave this page? Your changes are not saved.' */
    confirmingLeave: {
      on: {
        'leave.confirm': { target: 'deciding', actions: 'leaveConfirmed' },
        'leave.cancel': { target: 'idle', actions: assign({ pendingLeave: undefined }) },
      },
    },
    waitingForSession: {},
    generatingRoutes: {
      invoke: {
        src: 'generateRoutes',
        input: ({ context }) => {
          const user = context.session.user;
          if (!user) throw new Error('generating routes without a user');
          return { routeTable: context.routeTable, user };
        },
        onDone: {
          target: 'deciding',
          actions: { type: 'setRoutes', params: ({ event }) => ({ routes: event.output }) },
        },
        onError: {
          target: 'idle',
          actions: [
            { type: 'setRedirect', params: { to: { path: LOGIN_PATH, search: '' } } },
            'setLocation',
            'emitSessionInvalid',
          ],
        },
      },
    },
    deciding: {
      always: [
        { guard: 'isRequestMissing', target: 'idle' },
        { guard: 'isRedirectLoop', target: 'idle', actions: 'resetRequest' },
        { guard: 'isSessionChecking', target: 'waitingForSession' },
        // Rule 1: flow pages only from their preceding step.
        {
          guard: and(['isFlowStepSkipped', 'isFreshLoad']),
          target: 'deciding',
          reenter: true,
          actions: { type: 'setRedirect', params: { to: { path: LOGIN_PATH, search: '' } } },
        },
        { guard: 'isFlowStepSkipped', target: 'idle', actions: 'resetRequest' },
        // Rule 2: without a session.
        {
          guard: and(['isSignedOut', 'isPublicPage']),
          target: 'idle',
          actions: ['setWanted', 'setLocation'],
        },
        {
          guard: 'isSignedOut',
          target: 'deciding',
          reenter: true,
          actions: {
            type: 'setRedirect',
            params: ({ context }) => ({ to: loginLocationFor(requestedLocation(context)) }),
          },
        },
        // Rule 3: routes first.
        { guard: 'isRoutesMissing', target: 'generatingRoutes' },
        // Rule 4: entry pages send a signed-in user on.
        {
          guard: 'isEntryPage',
          target: 'deciding',
          reenter: true,
          actions: [
            { type: 'setRedirect', params: ({ context }) => ({ to: afterSignInLocation(context) }) },
            'resetWanted',
          ],
        },
        // Rule 5.
        { guard: 'isPublicPage', target: 'idle', actions: 'setLocation' },
        {
          guard: 'isRootWithLandingPage',
          target: 'deciding',
          reenter: true,
          actions: { type: 'setRedirect', params: ({ context }) => ({ to: parseLocation(context.landingPage) }) },
        },
        // A user without any page stays on / (the layout says so) instead of looping.
        { guard: 'isRoot', target: 'idle', actions: 'setLocation' },
        { guard: 'isKnownRoute', target: 'idle', actions: 'setLocation' },
        {
          target: 'deciding',
          reenter: true,
          actions: { type: 'setRedirect', params: { to: { path: NOT_FOUND_PATH, search: '' } } },
        },
      ],
    },
  },
});
