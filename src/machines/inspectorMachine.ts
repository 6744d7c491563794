import { not, setup } from 'xstate';
import { type InspectRequest, inspectRequestOf } from '../domain/inspector';
import { connectStatelyInspector } from './statelyInspector';

/**
 * The live machine inspector panel for operators: open or closed, for the users allowed to (super admin or
 * the 'machine-inspector' component permission); what it lists comes from the inspection store.
 *
 *   checking ─> unavailable (not allowed: nothing opens it)
 *            ─> open (`?inspect=1`; `?inspect=stately` also connects Stately's inspector)
 *            ─> closed
 *   closed ── inspector.toggle / inspector.open ─> open (tag `open`) ── inspector.toggle / inspector.close ─> closed
 *
 * Stately's inspector is connected by the injected action `connectStately`.
 */

export interface InspectorInput {
  /** `canInspectMachines(user)`. */
  allowed: boolean;
  /** `location.search` when the panel's owner starts. */
  search?: string;
}

export interface InspectorContext {
  allowed: boolean;
  request: InspectRequest | undefined;
}

export type InspectorEvent = { type: 'inspector.toggle' } | { type: 'inspector.open' } | { type: 'inspector.close' };

export const inspectorMachine = setup({
  types: {
    context: {} as InspectorContext,
    events: {} as InspectorEvent,
    input: {} as InspectorInput,
    tags: {} as 'open',
  },
  guards: {
    isAllowed: ({ context }) => context.allowed,
    isStatelyRequested: ({ context }) => context.request === 'stately',
    isPanelRequested: ({ context }) => context.request === 'panel',
  },
  actions: {
    /** Injected effect: opens Stately's inspector and forwards the app's actors to it. */
    connectStately: () => {
      void connectStatelyInspector();
    },
  },
}).createMachine({
  id: 'inspector',
  context: ({ input }) => ({ allowed: input.allowed, request: inspectRequestOf(input.search ?? '') }),
  initial: 'checking',
  states: {
    checking: {
      always: [
        { guard: not('isAllowed'), target: 'unavailable' },
        { guard: 'isStatelyRequested', target: 'open', actions: 'connectStately' },
        { guard: 'isPanelRequested', target: 'open' },
        { target: 'closed' },
      ],
    },
    /** The user may not inspect: the shortcut and `?inspect` do nothing. */
    unavailable: {},
    closed: {
      on: {
        'inspector.toggle': { target: 'open' },
        'inspector.open': { target: 'open' },
      },
    },
    open: {
      tags: ['open'],
      on: {
        'inspector.toggle': { target: 'closed' },
        'inspector.close': { target: 'closed' },
      },
    },
  },
});
