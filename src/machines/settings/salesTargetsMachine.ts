import { assign, setup } from 'xstate';
import type { ApiClient } from '../../api/client';
import { api } from '../../api/client';
import { getSalesTargets, saveSalesTargets } from '../../api/settings';
import {
  monthDate,
  monthOfDay,
  parseTarget,
  SALES_TARGETS_FAILED_MESSAGE,
  SALES_TARGETS_SAVED_MESSAGE,
  SETTINGS_WHAT,
  targetText,
} from '../../domain/settings';
import { createEditorMachine } from '../factories/editorMachine';

/** One outlet's row of the targets table: the target as typed. */
export interface SalesTargetRow {
  readonly outletId: number;
  readonly name: string;
  readonly text: string;
}

export interface SalesTargetsValue {
  readonly clientId: number;
  /** `YYYY-MM`. */
  readonly month: string;
  readonly rows: readonly SalesTargetRow[];
}

export interface SalesTargetsInput {
  readonly clientId: number;
  /** `YYYY-MM-DD`: the month shown first is today's. */
  readonly today: string;
}

/** Whether the targets may be saved: each input is an amount or empty, and at least one is an amount. */
export function areTargetsValid(value: SalesTargetsValue): boolean {
  const targets = value.rows.map((row) => parseTarget(row.text));
  return targets.every((target) => target !== undefined) && targets.some((target) => target !== null);
}

/**
 * The sales targets of one month (§2, §5, §7, §8): the editor factory's shape over the client's outlets; each
 * input is stripped of $ and commas and sent as a number with 2 decimals; 'Updated Sales Targets successfully.' /
 * 'Updated Sales Targets failed.'.
 */
export function createSalesTargetsEditorMachine(client: ApiClient = api) {
  return createEditorMachine<SalesTargetsValue, { clientId: number; month: string }>({
    id: 'salesTargetsEditor',
    what: SETTINGS_WHAT.salesTargets,
    load: async ({ clientId, month }, { signal }) => {
      const rows = await getSalesTargets({ client_id: clientId, date: monthDate(month) }, { signal, client });
      return {
        clientId,
        month,
        rows: rows.map((row) => ({ outletId: row.outlet_id, name: row.name, text: targetText(row.target) })),
      };
    },
    save: async (draft, { signal }) => {
      const outletTarget = draft.rows.flatMap((row) => {
        const target = parseTarget(row.text);
        return target === null || target === undefined ? [] : [{ outlet_id: row.outletId, target }];
      });
      await saveSalesTargets(
        { client_id: draft.clientId, date: monthDate(draft.month), outlet_target: outletTarget },
        { signal, client },
      );
      return { ...draft, rows: draft.rows.map((row) => ({ ...row, text: targetText(parseTarget(row.text)) })) };
    },
    validate: areTargetsValid,
    savedMessage: SALES_TARGETS_SAVED_MESSAGE,
    failedMessage: SALES_TARGETS_FAILED_MESSAGE,
    tellParentDirty: true,
  });
}

export type SalesTargetsEvent =
  | { type: 'targets.month'; month: string }
  /** From the editor: whether its draft holds unsaved targets. */
  | { type: 'editor.dirty'; dirty: boolean };

/**
 * The month picker ('MMMM YYYY') over the targets editor: a new month starts the editor again for that month (the
 * invoked child `editor`). While the editor holds unsaved targets the month is held (tag 'held'): they are saved
 * or discarded first, never dropped by a month change.
 *
 *   month.free ── targets.month ─> month (a new editor) ;  editor.dirty (true) ─> month.held
 *   month.held ── editor.dirty (false: saved or discarded) ─> month.free
 */
export function createSalesTargetsMachine(client: ApiClient = api) {
  const editor = createSalesTargetsEditorMachine(client);
  return setup({
    types: {
      context: {} as { clientId: number; today: string; month: string },
      events: {} as SalesTargetsEvent,
      input: {} as SalesTargetsInput,
      children: {} as { editor: 'editor' },
    },
    actors: { editor },
    guards: {
      isNewMonth: ({ context, event }) =>
        event.type === 'targets.month' && /^\d{4}-(0[1-9]|1[0-2])$/.test(event.month) && event.month !== context.month,
    },
  }).createMachine({
    id: 'salesTargets',
    context: ({ input }) => ({ clientId: input.clientId, today: input.today, month: monthOfDay(input.today) }),
    initial: 'month',
    states: {
      month: {
        invoke: {
          id: 'editor',
          src: 'editor',
          input: ({ context }) => ({ clientId: context.clientId, month: context.month }),
        },
        initial: 'free',
        states: {
          free: {
            on: {
              'targets.month': {
                guard: 'isNewMonth',
                target: '#salesTargets.month',
                reenter: true,
                actions: assign({ month: ({ event }) => event.month }),
              },
              'editor.dirty': { guard: ({ event }) => event.dirty, target: 'held' },
            },
          },
          held: {
            tags: ['held'],
            on: { 'editor.dirty': { guard: ({ event }) => !event.dirty, target: 'free' } },
          },
        },
      },
    },
  });
}

export const salesTargetsMachine = createSalesTargetsMachine();
