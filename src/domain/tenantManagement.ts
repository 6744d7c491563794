import { isEmailAddress } from './credentials';
import { INVALID_EMAIL_MESSAGE } from './messages';

/**
 * The rules and words of Tenant Connect's Tenant Management: the users' statuses by name, what may be done to a user
 * of each status, the invitation form's checks and the page's exact messages.
 */

export type TenantStatus = 'invited' | 'active' | 'deactivated';
export type TenantStatusFilter = TenantStatus | 'all';

export const TENANT_STATUS_NAMES: Readonly<Record<TenantStatus, string>> = {
  invited: 'Invited',
  active: 'Active',
  deactivated: 'Deactivated',
};

export const TENANT_STATUS_FILTERS: readonly TenantStatusFilter[] = ['all', 'invited', 'active', 'deactivated'];

export const isTenantStatusFilter = (value: string): value is TenantStatusFilter =>
  (TENANT_STATUS_FILTERS as readonly string[]).includes(value);

/** The '{what}' of the list's failure toast. */
export const TENANT_USERS_WHAT = 'Tenant users fetching';

/** What may be done to a listed user. */
export type TenantUserAction = 'resend' | 'deactivate' | 'reactivate';

/** Who a user is in a message: the name, or the e-mail address for an account without one. */
export function displayNameOf(user: { readonly name: string; readonly email: string }): string {
  return user.name.trim() === '' ? user.email : user.name.trim();
}

/** An invitation goes only to a user who has not activated; deactivation and reactivation undo each other. */
export function canActOn(action: TenantUserAction, status: TenantStatus): boolean {
  if (action === 'resend') return status === 'invited';
  if (action === 'deactivate') return status !== 'deactivated';
  return status === 'deactivated';
}

/* ---------------------------------------------------------------- messages */

export function invitationSentMessage(email: string): string {
  return `Invitation sent to ${email}.`;
}

export function inviteFailedMessage(email: string): string {
  return `Invite ${email} failed.`;
}

type Person = { readonly name: string; readonly email: string };

/** The toast of an action done. */
export function actionDoneMessage(action: TenantUserAction, user: Person): string {
  if (action === 'resend') return invitationSentMessage(user.email);
  return `${displayNameOf(user)} has been ${action === 'deactivate' ? 'deactivated' : 'reactivated'}.`;
}

/** The toast of an action that failed. */
export function actionFailedMessage(action: TenantUserAction, user: Person): string {
  if (action === 'resend') return `Resend invitation to ${user.email} failed.`;
  return `${action === 'deactivate' ? 'Deactivate' : 'Reactivate'} ${displayNameOf(user)} failed.`;
}

/** The confirmation's question. */
export function actionQuestion(action: TenantUserAction, user: Person): string {
  if (action === 'resend') return `Send a new invitation to ${user.email}? The link sent before stops working.`;
  if (action === 'deactivate') {
    return `Deactivate ${displayNameOf(user)}? They are signed out at once and cannot sign in until reactivated.`;
  }
  return `Reactivate ${displayNameOf(user)}? They can sign in again.`;
}

/** The confirmation's button. */
export const ACTION_BUTTON_TEXT: Readonly<Record<TenantUserAction, string>> = {
  resend: 'Resend invitation',
  deactivate: 'Deactivate',
  reactivate: 'Reactivate',
};

/* ---------------------------------------------------------------- the invitation */

export const INVITE_NAME_MESSAGE = 'Enter a name.';
export const INVITE_OUTLETS_MESSAGE = 'Choose at least one outlet.';
/** The longest name the call takes (the contract's maxLength). */
export const INVITE_NAME_MAX_LENGTH = 100;

export interface InviteDraft {
  readonly email: string;
  readonly name: string;
  /** The outlets ticked, in the order ticked. */
  readonly outletIds: readonly number[];
}

export interface InviteProblems {
  readonly email?: string;
  readonly name?: string;
  readonly outlets?: string;
}

/** What keeps a draft from being sent, field by field (none: it may be sent). */
export function inviteProblems(draft: InviteDraft): InviteProblems {
  return {
    ...(isEmailAddress(draft.email) ? {} : { email: INVALID_EMAIL_MESSAGE }),
    ...(draft.name.trim() === '' ? { name: INVITE_NAME_MESSAGE } : {}),
    ...(draft.outletIds.length === 0 ? { outlets: INVITE_OUTLETS_MESSAGE } : {}),
  };
}

export const isInviteValid = (draft: InviteDraft): boolean => Object.keys(inviteProblems(draft)).length === 0;

/** The call's body: the address and name trimmed, the outlets comma-joined in id order. */
export function inviteBodyOf(clientId: number, draft: InviteDraft) {
  return {
    client_id: clientId,
    email: draft.email.trim(),
    name: draft.name.trim(),
    outlet_ids: [...new Set(draft.outletIds)].sort((a, b) => a - b).join(','),
  };
}
