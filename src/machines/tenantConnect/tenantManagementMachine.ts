import { and, assign, emit, fromPromise, sendTo, setup } from 'xstate';
import { type ApiClient, api } from '../../api/client';
import { serverMessageWhen } from '../../api/errors';
import {
  inviteTenantUser,
  resendTenantInvitation,
  setTenantUserStatus,
  type TenantUser,
} from '../../api/tenantManagement';
import { type Notice, TOAST_TIMEOUT } from '../../domain/messages';
import {
  actionDoneMessage,
  actionFailedMessage,
  canActOn,
  type InviteDraft,
  type InviteProblems,
  invitationSentMessage,
  inviteBodyOf,
  inviteFailedMessage,
  inviteProblems,
  isInviteValid,
  type TenantStatusFilter,
  type TenantUserAction,
} from '../../domain/tenantManagement';
import { confirmDialogStates, formDialogStates } from '../factories/listDialogs';
import { followHeaderFilters, type HeaderFiltersEvent } from '../headerLink';
import { createTenantUsersListMachine } from './tenantManagementListMachine';

/**
 * Tenant Connect's Tenant Management: the tenant users of the header's client as a paged list (the invoked child
 * `list`, which the table sorts, pages and searches itself), filtered by status, and two parallel regions (their
 * dialogs' states from factories/listDialogs):
 *
 *   invite: closed ── invite.open (a client) ─> open.editing ── invite.change / invite.toggleOutlet ;
 *           invite.cancel ─> closed ; invite.submit (a valid draft) ─> open.submitting ─> closed (toast, the list
 *           again) | open.editing (toast)
 *   action: idle ── action.ask { action, user } (allowed for the user's status) ─> confirming
 *           confirming ── action.confirm ─> working ─> idle (toast, the list again) ; action.cancel ─> idle
 *
 * - The invitation is to outlets of the client the header shows (the outlets the caller sees); a draft keeps the
 *   client and outlets it was opened with, so a client changed meanwhile does not move it.
 * - An invitation goes only to a user who has not activated, deactivation only to a user who is not deactivated,
 *   reactivation only to a deactivated one.
 * - Toasts: 'Invitation sent to {email}.', '{name} has been deactivated.', '{name} has been reactivated.'; a
 *   failure '… failed.', or on HTTP 400 the server's text.
 */

export interface InviteOutlet {
  readonly id: number;
  readonly name: string;
}

export interface InviteState extends InviteDraft {
  readonly clientId: number;
  /** The outlets offered: the client's as the header knew them when the dialog opened. */
  readonly outlets: readonly InviteOutlet[];
  readonly problems: InviteProblems;
}

export interface ActionTarget {
  readonly clientId: number;
  readonly action: TenantUserAction;
  readonly user: TenantUser;
}

export interface TenantManagementContext {
  /** The header's client; undefined until it has one. */
  readonly clientId: number | undefined;
  readonly outlets: readonly InviteOutlet[];
  readonly status: TenantStatusFilter;
  readonly invite: InviteState | undefined;
  readonly target: ActionTarget | undefined;
}

export type TenantManagementEvent =
  | HeaderFiltersEvent
  | { type: 'status.change'; status: TenantStatusFilter }
  | { type: 'invite.open' }
  | { type: 'invite.change'; email?: string; name?: string }
  | { type: 'invite.toggleOutlet'; outletId: number }
  | { type: 'invite.submit' }
  | { type: 'invite.cancel' }
  | { type: 'action.ask'; action: TenantUserAction; user: TenantUser }
  | { type: 'action.confirm' }
  | { type: 'action.cancel' };

const notice = (intent: 'success' | 'danger', message: string): Notice => ({
  type: 'notify',
  intent,
  message,
  timeout: TOAST_TIMEOUT.long,
});

const draftOf = (state: InviteState): InviteDraft => ({
  email: state.email,
  name: state.name,
  outletIds: state.outletIds,
});

const withDraft = (state: InviteState, change: Partial<InviteDraft>): InviteState => {
  const next = { ...state, ...change };
  return { ...next, problems: inviteProblems(draftOf(next)) };
};

export function createTenantManagementMachine(client: ApiClient = api) {
  const sendInvitation = fromPromise<TenantUser, InviteState>(({ input, signal }) =>
    inviteTenantUser(inviteBodyOf(input.clientId, draftOf(input)), { signal, client }),
  );
  const runAction = fromPromise<TenantUser, ActionTarget>(({ input, signal }) => {
    const ids = { client_id: input.clientId, user_id: input.user.id };
    return input.action === 'resend'
      ? resendTenantInvitation(ids, { signal, client })
      : setTenantUserStatus({ ...ids, active: input.action === 'reactivate' }, { signal, client });
  });
  return setup({
    types: {
      context: {} as TenantManagementContext,
      events: {} as TenantManagementEvent,
      emitted: {} as Notice,
      tags: {} as 'inviting' | 'acting',
      children: {} as { list: 'tenantUsersList' },
    },
    actors: { followHeaderFilters, tenantUsersList: createTenantUsersListMachine(client), sendInvitation, runAction },
    guards: {
      isNewClient: ({ context, event }) =>
        event.type === 'header.filters' &&
        event.filters.clientId !== undefined &&
        event.filters.clientId !== context.clientId,
      hasClient: ({ context }) => context.clientId !== undefined,
      isNewStatus: ({ context, event }) => event.type === 'status.change' && event.status !== context.status,
      isDraftValid: ({ context }) => context.invite !== undefined && isInviteValid(draftOf(context.invite)),
      isInviteOutlet: ({ context, event }) =>
        event.type === 'invite.toggleOutlet' &&
        context.invite?.outlets.some((outlet) => outlet.id === event.outletId) === true,
      canAct: ({ context }, params: { action: TenantUserAction; user: TenantUser }) =>
        context.clientId !== undefined && canActOn(params.action, params.user.status),
    },
    actions: {
      setClient: assign(({ event }) =>
        event.type === 'header.filters' && event.filters.clientId !== undefined
          ? { clientId: event.filters.clientId }
          : {},
      ),
      setOutlets: assign(({ event }) =>
        event.type === 'header.filters'
          ? { outlets: event.outlets.map((outlet) => ({ id: outlet.id, name: outlet.name })) }
          : {},
      ),
      setStatus: assign(({ event }) => (event.type === 'status.change' ? { status: event.status } : {})),
      tellList: sendTo('list', ({ context }) => {
        if (context.clientId === undefined) throw new Error('tenant management: filters without a client');
        return { type: 'list.filters' as const, filters: { clientId: context.clientId, status: context.status } };
      }),
      refreshList: sendTo('list', { type: 'list.refresh' as const }),
      startDraft: assign(({ context }) => {
        if (context.clientId === undefined) return {};
        // A client of one outlet: that outlet is the invitation's.
        const only = context.outlets.length === 1 ? context.outlets.map((outlet) => outlet.id) : [];
        const draft = { email: '', name: '', outletIds: only };
        return {
          invite: { ...draft, clientId: context.clientId, outlets: context.outlets, problems: inviteProblems(draft) },
        };
      }),
      changeDraft: assign(({ context, event }) => {
        if (event.type !== 'invite.change' || !context.invite) return {};
        return {
          invite: withDraft(context.invite, {
            ...(event.email === undefined ? {} : { email: event.email }),
            ...(event.name === undefined ? {} : { name: event.name }),
          }),
        };
      }),
      toggleOutlet: assign(({ context, event }) => {
        const invite = context.invite;
        if (!invite || event.type !== 'invite.toggleOutlet') return {};
        const outletIds = invite.outletIds.includes(event.outletId)
          ? invite.outletIds.filter((id) => id !== event.outletId)
          : [...invite.outletIds, event.outletId];
        return { invite: withDraft(invite, { outletIds }) };
      }),
      clearDraft: assign({ invite: undefined }),
      setTarget: assign(({ context, event }) => ({
        target:
          event.type === 'action.ask' && context.clientId !== undefined
            ? { clientId: context.clientId, action: event.action, user: event.user }
            : undefined,
      })),
      clearTarget: assign({ target: undefined }),
      notifyInvited: emit((_, params: { output: TenantUser }) =>
        notice('success', invitationSentMessage(params.output.email)),
      ),
      notifyInviteFailed: emit(({ context }, params: { error: unknown }) =>
        notice(
          'danger',
          serverMessageWhen(params.error, 400) ?? inviteFailedMessage(context.invite?.email.trim() ?? ''),
        ),
      ),
      notifyActionDone: emit(({ context }) =>
        notice('success', context.target ? actionDoneMessage(context.target.action, context.target.user) : ''),
      ),
      notifyActionFailed: emit(({ context }, params: { error: unknown }) =>
        notice(
          'danger',
          serverMessageWhen(params.error, 400) ??
            (context.target ? actionFailedMessage(context.target.action, context.target.user) : ''),
        ),
      ),
    },
  }).createMachine({
    id: 'tenantManagement',
    type: 'parallel',
    context: { clientId: undefined, outlets: [], status: 'all', invite: undefined, target: undefined },
    // The list first: the header's filters, told at once, go to it.
    invoke: [{ id: 'list', src: 'tenantUsersList', input: {} }, { src: 'followHeaderFilters' }],
    on: {
      'header.filters': [
        { guard: 'isNewClient', actions: ['setClient', 'setOutlets', 'tellList'] },
        { actions: 'setOutlets' },
      ],
      'status.change': [
        { guard: and(['isNewStatus', 'hasClient']), actions: ['setStatus', 'tellList'] },
        { guard: 'isNewStatus', actions: 'setStatus' },
      ],
    },
    states: {
      invite: {
        initial: 'closed',
        states: {
          closed: {
            on: { 'invite.open': { guard: 'hasClient', target: 'open', actions: 'startDraft' } },
          },
          open: {
            initial: 'editing',
            states: formDialogStates({
              events: { submit: 'invite.submit', cancel: 'invite.cancel' },
              editing: {
                'invite.change': { actions: 'changeDraft' },
                'invite.toggleOutlet': { guard: 'isInviteOutlet', actions: 'toggleOutlet' },
              },
              canSubmit: 'isDraftValid',
              tag: 'inviting',
              submit: {
                src: 'sendInvitation',
                logic: sendInvitation,
                input: (context: TenantManagementContext) => context.invite,
              },
              closed: '#tenantManagement.invite.closed',
              done: '#tenantManagement.invite.closed',
              report: 'notifyInvited',
              refresh: 'refreshList',
              clear: 'clearDraft',
              failed: 'notifyInviteFailed',
            }),
          },
        },
      },
      action: {
        initial: 'idle',
        states: {
          idle: {
            on: {
              'action.ask': {
                guard: { type: 'canAct', params: ({ event }) => ({ action: event.action, user: event.user }) },
                target: 'confirming',
                actions: 'setTarget',
              },
            },
          },
          ...confirmDialogStates({
            events: { confirm: 'action.confirm', cancel: 'action.cancel' },
            tag: 'acting',
            run: {
              src: 'runAction',
              logic: runAction,
              input: (context: TenantManagementContext) => context.target,
            },
            closed: '#tenantManagement.action.idle',
            report: 'notifyActionDone',
            refresh: 'refreshList',
            clear: 'clearTarget',
            failed: 'notifyActionFailed',
            // The user may have changed meanwhile (activated, say): the list shows them as they are now.
            refreshOnError: true,
          }),
        },
      },
    },
  });
}

/** The page's machine on the app's api client. */
export const tenantManagementMachine = createTenantManagementMachine();
