import dayjs from 'dayjs';
import { assign, enqueueActions, setup } from 'xstate';
import { type SettingsScope, settingsScopeOf } from '../../domain/settings';
import { deviceKeysMachine } from '../deviceKeysMachine';
import { followHeaderFilters, type HeaderFiltersEvent } from '../headerLink';
import { categoriesMachine } from './categoriesMachine';
import { emailSubscriptionsMachine } from './emailSubscriptionsMachine';
import { mealTimingsMachine } from './mealTimingsMachine';
import { processingFeesMachine } from './processingFeesMachine';
import { salesTargetsMachine } from './salesTargetsMachine';

/**
 * The Settings page (§2): follows the header's client and its one outlet (All Outlets disabled) and runs one
 * editor a part, started again when what it edits changes.
 *
 *   client: waiting ── header.filters (a client) ─> ready: `emailSubscriptions`, `salesTargets`, `categories`
 *   outlet: waiting ── header.filters (an outlet) ─> ready: `processingFees`, `mealTimings`
 *   a new client (or outlet) re-enters its region's ready state: its editors start over for it; no outlet (All
 *   Outlets) stops the outlet's editors.
 *   `deviceKeys` (Point-of-sale devices) runs for as long as the page does and follows the header on its own.
 */

export interface SettingsContext {
  readonly scope: SettingsScope | undefined;
}

export const settingsMachine = setup({
  types: {
    context: {} as SettingsContext,
    events: {} as HeaderFiltersEvent,
    children: {} as {
      emailSubscriptions: 'emailSubscriptions';
      salesTargets: 'salesTargets';
      categories: 'categories';
      processingFees: 'processingFees';
      mealTimings: 'mealTimings';
      deviceKeys: 'deviceKeys';
    },
  },
  actors: {
    followHeaderFilters,
    emailSubscriptions: emailSubscriptionsMachine,
    salesTargets: salesTargetsMachine,
    categories: categoriesMachine,
    processingFees: processingFeesMachine,
    mealTimings: mealTimingsMachine,
    deviceKeys: deviceKeysMachine,
  },
  guards: {
    isNewClient: ({ context, event }) => {
      const scope = settingsScopeOf(event.filters, event.today ?? dayjs().format('YYYY-MM-DD'));
      return scope !== undefined && scope.clientId !== context.scope?.clientId;
    },
    isNewOutlet: ({ context, event }) => {
      const scope = settingsScopeOf(event.filters, event.today ?? dayjs().format('YYYY-MM-DD'));
      return (
        scope?.outletId !== undefined &&
        (scope.outletId !== context.scope?.outletId || scope.clientId !== context.scope.clientId)
      );
    },
    hasNoOutlet: ({ event }) => settingsScopeOf(event.filters, '')?.outletId === undefined,
  },
  actions: {
    setScope: assign(({ event }) => ({
      scope: settingsScopeOf(event.filters, event.today ?? dayjs().format('YYYY-MM-DD')),
    })),
    /** The categories editor (a client's) sends the outlet with what it creates and assigns. */
    tellCategoriesOutlet: enqueueActions(({ enqueue, event, self }) => {
      // `self` is the page before this event: a new client starts its categories editor with the outlet instead.
      const before = self.getSnapshot();
      const categories = before.children.categories;
      if (categories && before.context.scope?.clientId === event.filters.clientId) {
        enqueue.sendTo(categories, {
          type: 'categories.outlet',
          outletId: settingsScopeOf(event.filters, '')?.outletId,
        });
      }
    }),
  },
}).createMachine({
  id: 'settings',
  type: 'parallel',
  context: { scope: undefined },
  // Point-of-sale devices follows the header itself (the mall of its outlet) for as long as the page is shown.
  invoke: [{ src: 'followHeaderFilters' }, { id: 'deviceKeys', src: 'deviceKeys' }],
  on: {
    'header.filters': { actions: 'setScope' },
  },
  states: {
    client: {
      initial: 'waiting',
      states: {
        waiting: {
          on: { 'header.filters': { guard: 'isNewClient', target: 'ready', actions: 'setScope' } },
        },
        ready: {
          // A leaf re-enters alone (a region's own re-entry would restart the other region's editors too).
          on: { 'header.filters': { guard: 'isNewClient', target: 'ready', reenter: true, actions: 'setScope' } },
          invoke: [
            {
              id: 'emailSubscriptions',
              src: 'emailSubscriptions',
              input: ({ context }) => ({ clientId: context.scope?.clientId ?? 0 }),
            },
            {
              id: 'salesTargets',
              src: 'salesTargets',
              input: ({ context }) => ({
                clientId: context.scope?.clientId ?? 0,
                today: context.scope?.today ?? dayjs().format('YYYY-MM-DD'),
              }),
            },
            {
              id: 'categories',
              src: 'categories',
              input: ({ context }) => ({ clientId: context.scope?.clientId ?? 0, outletId: context.scope?.outletId }),
            },
          ],
        },
      },
    },
    outlet: {
      initial: 'waiting',
      states: {
        waiting: {
          on: {
            'header.filters': { guard: 'isNewOutlet', target: 'ready', actions: ['setScope', 'tellCategoriesOutlet'] },
          },
        },
        ready: {
          on: {
            'header.filters': [
              { guard: 'isNewOutlet', target: 'ready', reenter: true, actions: ['setScope', 'tellCategoriesOutlet'] },
              { guard: 'hasNoOutlet', target: 'waiting', actions: ['setScope', 'tellCategoriesOutlet'] },
            ],
          },
          invoke: [
            {
              id: 'processingFees',
              src: 'processingFees',
              input: ({ context }) => ({
                clientId: context.scope?.clientId ?? 0,
                outletId: context.scope?.outletId ?? 0,
                today: context.scope?.today ?? dayjs().format('YYYY-MM-DD'),
              }),
            },
            {
              id: 'mealTimings',
              src: 'mealTimings',
              input: ({ context }) => ({
                clientId: context.scope?.clientId ?? 0,
                outletId: context.scope?.outletId ?? 0,
              }),
            },
          ],
        },
      },
    },
  },
});
