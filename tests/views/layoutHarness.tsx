import { render } from '@testing-library/react';
import { type ReactNode, useEffect } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { type Actor, fromPromise } from 'xstate';
import type { UserInfo } from '../../src/api/auth';
import type { Client, Mall, Outlet } from '../../src/api/lookup';
import { permittedRoutes } from '../../src/domain/permissions';
import { AuthContext } from '../../src/machines/authContext';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { LayoutContext } from '../../src/machines/layoutContext';
import { layoutMachine } from '../../src/machines/layoutMachine';
import { ROUTES } from '../../src/routes';
import { FilterHeaderContext } from '../../src/views/filters/filterHeaderContext';
import { fakeServer, machineFor, userInfo } from './renderApp';

/*
 * The signed-in frame's pieces (sidebar, top bar, breadcrumb) with real layout, filter header and auth
 * machines behind them; their server calls answer from the data below, the cookie and URL writes are kept.
 */

export const CLIENTS: Client[] = [
  { id: 4, name: 'sunrise Retail Group', reporting_currency: 'IDR' },
  { id: 3, name: 'Harbourfront Malls', reporting_currency: 'SGD' },
];
export const MALLS: Record<number, Mall[]> = {
  3: [
    { id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
    { id: 2, name: 'East', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
  ],
  4: [{ id: 5, name: 'Kemang', currency: 'IDR', time_zone: 'Asia/Jakarta', country: 'ID' }],
};
export const OUTLETS: Record<number, Outlet[]> = {
  3: [{ id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null }],
  4: [{ id: 20, name: 'Bakery', type: 2, currency: 'IDR', mall_id: 5, outlet_code: null }],
};

export const SUPER_ADMIN: UserInfo = userInfo({ roles: ['super admin'], clients: [3, 4], client_id: 3 });
export const ADMIN_ROUTES = permittedRoutes(ROUTES, SUPER_ADMIN);

export interface Harness {
  readonly location: ReturnType<typeof memoryLocation>;
  readonly sidebarCookies: string[];
  /** The themes the layout remembered, in order. */
  readonly themeWrites: string[];
  readonly layout: () => Actor<typeof layoutMachine>;
  readonly header: () => Actor<typeof filterHeaderMachine>;
}

export interface FrameOptions {
  readonly path?: string;
  readonly mobile?: boolean;
  readonly cookies?: string;
  readonly user?: UserInfo;
  readonly openGroup?: string;
}

export function renderFrame(ui: ReactNode, options: FrameOptions = {}): Harness {
  const user = options.user ?? SUPER_ADMIN;
  const location = memoryLocation({ path: options.path ?? '/shopper-connect/mall-home', record: true });
  const sidebarCookies: string[] = [];
  const themeWrites: string[] = [];
  let layoutActor: Actor<typeof layoutMachine> | undefined;
  let headerActor: Actor<typeof filterHeaderMachine> | undefined;

  const layoutLogic = layoutMachine.provide({
    actors: {
      fetchClients: fromPromise<Client[]>(async () => CLIENTS.filter((client) => user.clients.includes(client.id))),
    },
    actions: {
      writeSidebarCookie: (_, params: { status: 'opened' | 'closed' }) => {
        sidebarCookies.push(params.status);
      },
      writeTheme: (_, params: { theme: string }) => {
        themeWrites.push(params.theme);
      },
    },
  });
  const headerLogic = filterHeaderMachine.provide({
    actors: {
      fetchMalls: fromPromise<Mall[], { clientId: number }>(async ({ input }) => MALLS[input.clientId] ?? []),
      fetchOutlets: fromPromise<Outlet[], { clientId: number }>(async ({ input }) => OUTLETS[input.clientId] ?? []),
    },
    actions: { writeUrl: () => undefined, writeCookies: () => undefined },
  });

  // biome-ignore lint/correctness/noComponentHookFactories: a probe made once per render of the harness, to hand the test its actors.
  function Probe() {
    const layout = LayoutContext.useActorRef();
    const header = FilterHeaderContext.useActorRef();
    useEffect(() => {
      layoutActor = layout;
      headerActor = header;
    }, [layout, header]);
    return null;
  }

  const server = fakeServer({ credential: () => Promise.resolve({ user, csrfToken: 'csrf-session' }) });
  render(
    <AuthContext.Provider logic={machineFor(server)}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <LayoutContext.Provider
          logic={layoutLogic}
          options={{
            input: {
              mobile: options.mobile ?? false,
              cookies: options.cookies ?? '',
              clientIds: user.clients,
              openGroup: options.openGroup ?? '/shopper-connect',
            },
          }}
        >
          <FilterHeaderContext.Provider
            logic={headerLogic}
            options={{ input: { today: '2024-03-15', clientIds: user.clients, defaultClientId: user.client_id } }}
          >
            <Probe />
            {ui}
          </FilterHeaderContext.Provider>
        </LayoutContext.Provider>
      </Router>
    </AuthContext.Provider>,
  );
  return {
    location,
    sidebarCookies,
    themeWrites,
    layout: () => {
      if (!layoutActor) throw new Error('the layout actor is not mounted');
      return layoutActor;
    },
    header: () => {
      if (!headerActor) throw new Error('the filter header actor is not mounted');
      return headerActor;
    },
  };
}
