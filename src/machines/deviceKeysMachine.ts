import { assign, emit, fromPromise, sendTo, setup } from 'xstate';
import { type ApiClient, api } from '../api/client';
import { createDeviceKey, type DeviceKey, type DeviceKeyCreated, revokeDeviceKey } from '../api/deviceKeys';
import { serverMessageWhen } from '../api/errors';
import {
  COPY_FAILED_MESSAGE,
  createDeviceKeyBodyOf,
  DEVICE_KEY_CREATE_FAILED_MESSAGE,
  type DeviceKeyDraft,
  type DeviceKeyProblems,
  type DeviceKeysScope,
  type DeviceOutlet,
  deviceKeyProblems,
  deviceKeyRevokedMessage,
  deviceKeyRevokeFailedMessage,
  deviceKeyStatus,
  deviceKeysScopeOf,
  initialDeviceKeyDraft,
  isDeviceKeyDraftValid,
  isSameMall,
} from '../domain/deviceKeys';
import { type Notice, TOAST_TIMEOUT } from '../domain/messages';
import { createDeviceKeysListMachine } from './deviceKeysListMachine';
import { confirmDialogStates, formDialogStates } from './factories/listDialogs';
import { followHeaderFilters, type HeaderFiltersEvent } from './headerLink';

/**
 * Settings' Point-of-sale devices: the device keys of the outlets of the mall of the header's one outlet, as a
 * paged list (the invoked child `list`, which the table sorts, pages and searches itself), a key created for one
 * outlet of the mall (shown once) and a key revoked after a confirmation (the dialogs' states from
 * factories/listDialogs).
 *
 *   waiting ── header.filters (an outlet in a mall) ─> ready
 *   ready ── header.filters: another mall ─> ready (again: the list of that mall) ; no mall ─> waiting
 *   ready.idle ── create.open ─> creating.editing ── create.submit (a valid draft) ─> creating.submitting
 *     submitting ── done ─> creating.issued (the key, the list again) ; error ─> editing (the reason in the draft)
 *     issued ── issued.copy ─> copying ─> issued (copied, or a toast) ; issued.close ─> idle (the key forgotten)
 *   ready.idle ── revoke.ask (an active key) ─> revoking.confirming ── revoke.confirm ─> revoking.working
 *     working ── done / error ─> idle (a toast, the list again) ; confirming ── revoke.cancel ─> idle
 *
 * - The dialog offers the mall's outlets the header offers; the draft keeps the client and outlets it was
 *   opened with, so a header changed meanwhile does not move it.
 * - The key is kept only while the dialog that shows it is open.
 */

export interface DeviceKeyDraftState extends DeviceKeyDraft {
  readonly clientId: number;
  readonly outlets: readonly DeviceOutlet[];
  readonly problems: DeviceKeyProblems;
  /** Why the last submit failed (the server's 400 text, else ours). */
  readonly error: string | undefined;
}

export interface RevokeTarget {
  readonly clientId: number;
  readonly key: DeviceKey;
}

export type CopiedText = 'key' | 'example';

export interface DeviceKeysContext {
  readonly scope: DeviceKeysScope | undefined;
  readonly draft: DeviceKeyDraftState | undefined;
  /** The key just created and its row, while the dialog shows it. */
  readonly issued: DeviceKeyCreated | undefined;
  /** What was copied last, while the key is shown. */
  readonly copied: CopiedText | undefined;
  readonly target: RevokeTarget | undefined;
}

export type DeviceKeysEvent =
  | HeaderFiltersEvent
  | { type: 'create.open' }
  | { type: 'create.change'; outletId?: number; name?: string }
  | { type: 'create.submit' }
  | { type: 'create.cancel' }
  /** Copies `text` (the key, or the example call with it) to the clipboard. */
  | { type: 'issued.copy'; what: CopiedText; text: string }
  | { type: 'issued.close' }
  | { type: 'revoke.ask'; key: DeviceKey }
  | { type: 'revoke.confirm' }
  | { type: 'revoke.cancel' };

export type DeviceKeysTag = 'creating' | 'revoking' | 'copying';

/** Writes text to the browser's clipboard; fails where there is none (an insecure origin). */
export async function writeToClipboard(text: string): Promise<void> {
  const clipboard = globalThis.navigator?.clipboard;
  if (!clipboard) throw new Error('no clipboard');
  await clipboard.writeText(text);
}

const notice = (intent: 'success' | 'danger', message: string): Notice => ({
  type: 'notify',
  intent,
  message,
  timeout: TOAST_TIMEOUT.long,
});

const withDraft = (draft: DeviceKeyDraftState, change: Partial<DeviceKeyDraft>): DeviceKeyDraftState => {
  const next = { ...draft, ...change };
  return { ...next, problems: deviceKeyProblems(next, next.outlets), error: undefined };
};

const scopeOfEvent = (event: DeviceKeysEvent) =>
  event.type === 'header.filters' ? deviceKeysScopeOf(event.filters, event.outlets) : undefined;

export function createDeviceKeysMachine(
  client: ApiClient = api,
  copy: (text: string) => Promise<void> = writeToClipboard,
) {
  const createKey = fromPromise<DeviceKeyCreated, DeviceKeyDraftState>(({ input, signal }) =>
    createDeviceKey(createDeviceKeyBodyOf(input.clientId, input), { signal, client }),
  );
  const revokeKey = fromPromise<DeviceKey, RevokeTarget>(({ input, signal }) =>
    revokeDeviceKey({ client_id: input.clientId, id: input.key.id }, { signal, client }),
  );
  return setup({
    types: {
      context: {} as DeviceKeysContext,
      events: {} as DeviceKeysEvent,
      emitted: {} as Notice,
      tags: {} as DeviceKeysTag,
      children: {} as { list: 'deviceKeysList' },
    },
    actors: {
      followHeaderFilters,
      deviceKeysList: createDeviceKeysListMachine(client),
      createKey,
      revokeKey,
      copyText: fromPromise<CopiedText, { what: CopiedText; text: string }>(async ({ input }) => {
        await copy(input.text);
        return input.what;
      }),
    },
    guards: {
      hasMall: ({ event }) => scopeOfEvent(event) !== undefined,
      isNewMall: ({ context, event }) => {
        const scope = scopeOfEvent(event);
        return scope !== undefined && !isSameMall(scope, context.scope);
      },
      hasOutlets: ({ context }) => (context.scope?.outlets.length ?? 0) > 0,
      isDraftOutlet: ({ context, event }) =>
        event.type === 'create.change' &&
        (event.outletId === undefined ||
          context.draft?.outlets.some((outlet) => outlet.id === event.outletId) === true),
      isDraftValid: ({ context }) =>
        context.draft !== undefined && isDeviceKeyDraftValid(context.draft, context.draft.outlets),
      isActiveKey: ({ context }, params: { key: DeviceKey }) =>
        context.scope !== undefined && deviceKeyStatus(params.key) === 'active',
    },
    actions: {
      setScope: assign(({ event }) => ({ scope: scopeOfEvent(event) })),
      clearScope: assign({ scope: undefined }),
      clearDialogs: assign({ draft: undefined, issued: undefined, copied: undefined, target: undefined }),
      startDraft: assign(({ context }) => {
        const { scope } = context;
        if (!scope) return {};
        const draft = initialDeviceKeyDraft(scope);
        return {
          draft: {
            ...draft,
            clientId: scope.clientId,
            outlets: scope.outlets,
            problems: deviceKeyProblems(draft, scope.outlets),
            error: undefined,
          },
        };
      }),
      changeDraft: assign(({ context, event }) => {
        if (!context.draft || event.type !== 'create.change') return {};
        return {
          draft: withDraft(context.draft, {
            ...(event.outletId === undefined ? {} : { outletId: event.outletId }),
            ...(event.name === undefined ? {} : { name: event.name }),
          }),
        };
      }),
      setDraftError: assign(({ context }, params: { error: unknown }) => {
        if (!context.draft) return {};
        return {
          draft: { ...context.draft, error: serverMessageWhen(params.error, 400) ?? DEVICE_KEY_CREATE_FAILED_MESSAGE },
        };
      }),
      clearDraft: assign({ draft: undefined }),
      setIssued: assign((_, params: { output: DeviceKeyCreated }) => ({ issued: params.output, copied: undefined })),
      clearIssued: assign({ issued: undefined, copied: undefined }),
      setCopied: assign((_, params: { what: CopiedText }) => ({ copied: params.what })),
      setTarget: assign(({ context }, params: { key: DeviceKey }) => ({
        target: context.scope ? { clientId: context.scope.clientId, key: params.key } : undefined,
      })),
      clearTarget: assign({ target: undefined }),
      refreshList: sendTo('list', { type: 'list.refresh' as const }),
      notifyRevoked: emit(({ context }) => notice('success', deviceKeyRevokedMessage(context.target?.key.name ?? ''))),
      notifyRevokeFailed: emit(({ context }, params: { error: unknown }) =>
        notice(
          'danger',
          serverMessageWhen(params.error, 404) ?? deviceKeyRevokeFailedMessage(context.target?.key.name ?? ''),
        ),
      ),
      notify: emit((_, params: { intent: 'success' | 'danger'; message: string }) =>
        notice(params.intent, params.message),
      ),
    },
  }).createMachine({
    id: 'deviceKeys',
    context: { scope: undefined, draft: undefined, issued: undefined, copied: undefined, target: undefined },
    invoke: { src: 'followHeaderFilters' },
    initial: 'waiting',
    states: {
      /** No outlet in a mall chosen in the header yet. */
      waiting: {
        on: { 'header.filters': { guard: 'hasMall', target: 'ready', actions: 'setScope' } },
      },
      ready: {
        invoke: {
          id: 'list',
          src: 'deviceKeysList',
          input: ({ context }) => ({
            filters: context.scope ? { clientId: context.scope.clientId, mallId: context.scope.mallId } : undefined,
          }),
        },
        on: {
          'header.filters': [
            { guard: 'isNewMall', target: 'ready', reenter: true, actions: ['setScope', 'clearDialogs'] },
            { guard: 'hasMall', actions: 'setScope' },
            { target: 'waiting', actions: ['clearScope', 'clearDialogs'] },
          ],
        },
        initial: 'idle',
        states: {
          idle: {
            on: {
              'create.open': { guard: 'hasOutlets', target: 'creating', actions: 'startDraft' },
              'revoke.ask': {
                guard: { type: 'isActiveKey', params: ({ event }) => ({ key: event.key }) },
                target: 'revoking',
                actions: { type: 'setTarget', params: ({ event }) => ({ key: event.key }) },
              },
            },
          },
          creating: {
            initial: 'editing',
            states: {
              ...formDialogStates({
                events: { submit: 'create.submit', cancel: 'create.cancel' },
                editing: { 'create.change': { guard: 'isDraftOutlet', actions: 'changeDraft' } },
                canSubmit: 'isDraftValid',
                tag: 'creating',
                submit: {
                  src: 'createKey',
                  logic: createKey,
                  input: (context: DeviceKeysContext) => context.draft,
                },
                closed: '#deviceKeys.ready.idle',
                done: '#deviceKeys.ready.creating.issued',
                report: 'setIssued',
                refresh: 'refreshList',
                clear: 'clearDraft',
                // The reason in the dialog, the draft kept.
                failed: 'setDraftError',
              }),
              /** The key, shown this once. */
              issued: {
                initial: 'shown',
                on: { 'issued.close': { target: '#deviceKeys.ready.idle', actions: 'clearIssued' } },
                states: {
                  shown: {
                    on: { 'issued.copy': 'copying' },
                  },
                  copying: {
                    tags: ['copying'],
                    invoke: {
                      src: 'copyText',
                      input: ({ event }) => {
                        if (event.type !== 'issued.copy') throw new Error('device keys: copying nothing');
                        return { what: event.what, text: event.text };
                      },
                      onDone: {
                        target: 'shown',
                        actions: { type: 'setCopied', params: ({ event }) => ({ what: event.output }) },
                      },
                      onError: {
                        target: 'shown',
                        actions: { type: 'notify', params: { intent: 'danger', message: COPY_FAILED_MESSAGE } },
                      },
                    },
                  },
                },
              },
            },
          },
          revoking: {
            initial: 'confirming',
            states: confirmDialogStates({
              events: { confirm: 'revoke.confirm', cancel: 'revoke.cancel' },
              tag: 'revoking',
              run: {
                src: 'revokeKey',
                logic: revokeKey,
                input: (context: DeviceKeysContext) => context.target,
              },
              closed: '#deviceKeys.ready.idle',
              report: 'notifyRevoked',
              refresh: 'refreshList',
              clear: 'clearTarget',
              failed: 'notifyRevokeFailed',
              // The key may have changed meanwhile: the list shows it as it is now.
              refreshOnError: true,
            }),
          },
        },
      },
    },
  });
}

/** The section's machine on the app's api client and the browser's clipboard. */
export const deviceKeysMachine = createDeviceKeysMachine();
