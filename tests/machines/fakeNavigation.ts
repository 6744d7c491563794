import { assign, setup } from 'xstate';
import { type AppLocation, parseLocation } from '../../src/domain/navigation';

/** A navigation request as the stand-in guard received it. */
export interface NavigationRequest {
  readonly href: string;
  readonly replace: boolean;
}

/**
 * A stand-in for the app's navigation guard (run it with systemId 'navigation'): it shows `href` and lets every
 * request through, recording it in `requests`, so that a page machine beside it reads and writes an address.
 * `location.change` is the browser moving the address (back, forward): shown, not recorded.
 */
export function fakeNavigation(href: string, requests: NavigationRequest[]) {
  return setup({
    types: {
      context: {} as { location: AppLocation },
      events: {} as
        | { type: 'navigation.request'; href: string; replace?: boolean }
        | { type: 'location.change'; href: string },
    },
  }).createMachine({
    context: { location: parseLocation(href) },
    on: {
      'navigation.request': {
        actions: [
          ({ event }) => requests.push({ href: event.href, replace: event.replace ?? false }),
          assign({ location: ({ event }) => parseLocation(event.href) }),
        ],
      },
      'location.change': { actions: assign({ location: ({ event }) => parseLocation(event.href) }) },
    },
  });
}
