import { Button, Callout, Card, Checkbox, Classes, FormGroup, HTMLSelect, InputGroup, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { TenantUser, TenantUserSortColumn } from '../../../api/tenantManagement';
import { formatDateTime } from '../../../domain/format';
import {
  ACTION_BUTTON_TEXT,
  actionQuestion,
  displayNameOf,
  INVITE_NAME_MAX_LENGTH,
  isTenantStatusFilter,
  TENANT_STATUS_NAMES,
  type TenantStatus,
  type TenantUserAction,
} from '../../../domain/tenantManagement';
import {
  type createTenantUsersListMachine,
  TENANT_USERS_ROWS_PER_PAGE_OPTIONS,
} from '../../../machines/tenantConnect/tenantManagementListMachine';
import { tenantManagementMachine } from '../../../machines/tenantConnect/tenantManagementMachine';
import { ConfirmAlert } from '../../common/ConfirmAlert';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { FormDialog } from '../../common/DialogActions';
import { useNoticeToasts } from '../../common/Notifications';
import { SearchForm } from '../../common/SearchForm';
import { usePageActor } from '../../common/usePageActor';
import { PageTitle } from '../../filters/PageTitle';
import type { PageProps } from '../pageProps';
import './tenantConnect.css';
import './tenantManagement.css';
import { PagedList, type PagedListWording } from '../../common/PagedList';

type PageActor = ActorRefFrom<typeof tenantManagementMachine>;
type ListActor = ActorRefFrom<ReturnType<typeof createTenantUsersListMachine>>;

const STATUS_OPTIONS = [
  { value: 'all', label: 'Every status' },
  ...Object.entries(TENANT_STATUS_NAMES).map(([value, label]) => ({ value, label })),
];

const STATUS_INTENT: Readonly<Record<TenantStatus, 'warning' | 'success' | 'none'>> = {
  invited: 'warning',
  active: 'success',
  deactivated: 'none',
};

/** The longest search the call takes (the contract's maxLength). */
const SEARCH_MAX_LENGTH = 200;

/**
 * Tenant Connect's tenant management: the tenant users of the header's client (their outlets, status, invitation
 * and last sign-in), sortable by any column, searched by name or e-mail and filtered by status; inviting a user to
 * outlets of the client, sending an invitation again, deactivating and reactivating, each confirmed first.
 */
export function TenantManagementPage({ title }: PageProps) {
  const actor = usePageActor(tenantManagementMachine);
  useNoticeToasts(actor);
  const list = useSelector(actor, (state) => state?.children.list);
  useNoticeToasts(list);
  const status = useSelector(actor, (state) => state?.context.status ?? 'all');
  const canInvite = useSelector(actor, (state) => state?.can({ type: 'invite.open' }) ?? false);
  return (
    <section className="tenant-connect-page" data-testid="tenant-management-page">
      <div className="tenant-management-title">
        <PageTitle title={title} />
        <Button
          icon="new-person"
          intent="primary"
          text="Invite user"
          data-testid="tenant-invite-open"
          disabled={!canInvite}
          onClick={() => actor?.send({ type: 'invite.open' })}
        />
      </div>
      <Card className="tenant-connect-card">
        <div className="tenant-connect-toolbar">
          <HTMLSelect
            aria-label="Status"
            data-testid="tenant-status-filter"
            value={status}
            options={STATUS_OPTIONS}
            disabled={!actor}
            onChange={(event) => {
              const value = event.currentTarget.value;
              if (isTenantStatusFilter(value)) actor?.send({ type: 'status.change', status: value });
            }}
          />
          <SearchForm
            label="Search name or e-mail"
            maxLength={SEARCH_MAX_LENGTH}
            disabled={!list}
            onSearch={(text) => list?.send({ type: 'list.search', text })}
            inputTestId="tenant-search"
            buttonTestId="tenant-search-button"
          />
        </div>
        {actor && list ? <UserList actor={actor} list={list} /> : <UserTable rows={undefined} />}
      </Card>
      {actor ? (
        <>
          <InviteDialog actor={actor} />
          <ActionAlert actor={actor} />
        </>
      ) : null}
    </section>
  );
}

const WORDING: PagedListWording = {
  failure: 'The tenant users could not be read.',
  emptyIcon: 'people',
  empty: 'No tenant user matches these filters.',
  unit: ['user', 'users'],
  testId: 'tenant',
};

function UserList({ actor, list }: { readonly actor: PageActor; readonly list: ListActor }) {
  return (
    <PagedList list={list} wording={WORDING} rowsPerPageOptions={TENANT_USERS_ROWS_PER_PAGE_OPTIONS}>
      {(view) => (
        <UserTable
          actor={actor}
          rows={view.rows}
          sortColumn={view.sortColumn}
          order={view.order}
          onSort={view.onSort}
        />
      )}
    </PagedList>
  );
}

/** The users table's columns; a row's buttons are the actions the machine allows on the user. */
function userColumns(actor: PageActor | undefined): readonly DataColumn<TenantUser, TenantUserSortColumn>[] {
  return [
    { key: 'name', header: 'Name', kind: 'text', sort: 'name', render: (user) => user.name },
    { key: 'email', header: 'E-mail', kind: 'text', sort: 'email', render: (user) => user.email },
    {
      key: 'outlets',
      header: 'Outlets',
      kind: 'text',
      sort: 'outlets',
      render: (user) => user.outlets.map((outlet) => outlet.name).join(', '),
    },
    {
      key: 'status',
      header: 'Status',
      kind: 'status',
      sort: 'status',
      render: (user) => (
        <Tag minimal intent={STATUS_INTENT[user.status]} data-testid="tenant-status">
          {TENANT_STATUS_NAMES[user.status]}
        </Tag>
      ),
    },
    {
      key: 'invited',
      header: 'Invited',
      kind: 'datetime',
      sort: 'invited_at',
      render: (user) => formatDateTime(user.invited_at),
    },
    {
      key: 'last_sign_in',
      header: 'Last sign-in',
      kind: 'datetime',
      sort: 'last_sign_in_at',
      render: (user) => (user.last_sign_in_at ? formatDateTime(user.last_sign_in_at) : 'Never'),
    },
    {
      key: 'actions',
      header: 'Actions',
      kind: 'actions',
      render: (user) => (actor ? <UserActions actor={actor} user={user} /> : null),
    },
  ];
}

function UserTable({
  actor,
  rows,
  sortColumn,
  order,
  onSort,
}: {
  readonly actor?: PageActor;
  /** Undefined while loading: skeleton rows. */
  readonly rows: readonly TenantUser[] | undefined;
  readonly sortColumn?: TenantUserSortColumn;
  readonly order?: 'asc' | 'desc';
  readonly onSort?: (column: TenantUserSortColumn) => void;
}) {
  return (
    <DataTable
      label="Tenant users"
      className="tenant-users-table"
      columns={userColumns(actor)}
      rows={actor ? rows : undefined}
      rowKey={(user) => user.id}
      rowAttributes={(user) => ({ 'data-testid': 'tenant-row', 'data-user-id': user.id })}
      sortColumn={sortColumn}
      order={order}
      onSort={onSort}
      testIdPrefix="tenant"
      skeleton={{ label: 'Loading user', testId: 'tenant-skeleton-row' }}
    />
  );
}

const ACTIONS: readonly TenantUserAction[] = ['resend', 'deactivate', 'reactivate'];

function UserActions({ actor, user }: { readonly actor: PageActor; readonly user: TenantUser }) {
  const canResend = useSelector(actor, (state) => state.can({ type: 'action.ask', action: 'resend', user }));
  const canDeactivate = useSelector(actor, (state) => state.can({ type: 'action.ask', action: 'deactivate', user }));
  const canReactivate = useSelector(actor, (state) => state.can({ type: 'action.ask', action: 'reactivate', user }));
  const allowed: Readonly<Record<TenantUserAction, boolean>> = {
    resend: canResend,
    deactivate: canDeactivate,
    reactivate: canReactivate,
  };
  const who = displayNameOf(user);
  return (
    <div className="tenant-actions">
      {ACTIONS.filter((action) => allowed[action]).map((action) => (
        <Button
          key={action}
          size="small"
          variant="outlined"
          intent={action === 'deactivate' ? 'danger' : 'none'}
          text={ACTION_BUTTON_TEXT[action]}
          aria-label={`${ACTION_BUTTON_TEXT[action]}: ${who}`}
          data-testid={`tenant-${action}`}
          onClick={() => actor.send({ type: 'action.ask', action, user })}
        />
      ))}
    </div>
  );
}

function InviteDialog({ actor }: { readonly actor: PageActor }) {
  const draft = useSelector(actor, (state) => state.context.invite);
  const sending = useSelector(actor, (state) => state.hasTag('inviting'));
  const canSubmit = useSelector(actor, (state) => state.can({ type: 'invite.submit' }));
  const emailProblem = draft && draft.email.trim() !== '' ? draft.problems.email : undefined;
  return (
    <FormDialog
      isOpen={draft !== undefined}
      title="Invite a tenant user"
      formTestId="tenant-invite-form"
      submitText="Send invitation"
      submitTestId="tenant-invite-submit"
      busy={sending}
      canSubmit={canSubmit}
      onCancel={() => actor.send({ type: 'invite.cancel' })}
      onSubmit={() => actor.send({ type: 'invite.submit' })}
    >
      <FormGroup
        label="E-mail"
        labelFor="tenant-invite-email"
        intent={emailProblem ? 'danger' : 'none'}
        helperText={emailProblem ?? 'The invitation link goes to this address.'}
      >
        <InputGroup
          id="tenant-invite-email"
          type="email"
          autoFocus
          maxLength={254}
          value={draft?.email ?? ''}
          disabled={sending}
          intent={emailProblem ? 'danger' : 'none'}
          data-testid="tenant-invite-email"
          onChange={(event) => actor.send({ type: 'invite.change', email: event.currentTarget.value })}
        />
      </FormGroup>
      <FormGroup label="Name" labelFor="tenant-invite-name">
        <InputGroup
          id="tenant-invite-name"
          maxLength={INVITE_NAME_MAX_LENGTH}
          value={draft?.name ?? ''}
          disabled={sending}
          data-testid="tenant-invite-name"
          onChange={(event) => actor.send({ type: 'invite.change', name: event.currentTarget.value })}
        />
      </FormGroup>
      <fieldset className="tenant-invite-outlets" data-testid="tenant-invite-outlets">
        <legend>Outlets</legend>
        {draft && draft.outlets.length === 0 ? (
          <Callout intent="warning">This client has no outlet you may invite a user to.</Callout>
        ) : null}
        {draft?.outlets.map((outlet) => (
          <Checkbox
            key={outlet.id}
            label={`${outlet.name} (${outlet.id})`}
            checked={draft.outletIds.includes(outlet.id)}
            disabled={sending}
            onChange={() => actor.send({ type: 'invite.toggleOutlet', outletId: outlet.id })}
          />
        ))}
        {draft?.problems.outlets ? <p className={Classes.TEXT_MUTED}>{draft.problems.outlets}</p> : null}
      </fieldset>
    </FormDialog>
  );
}

function ActionAlert({ actor }: { readonly actor: PageActor }) {
  const target = useSelector(actor, (state) => state.context.target);
  const confirming = useSelector(actor, (state) => state.matches({ action: 'confirming' }));
  const working = useSelector(actor, (state) => state.hasTag('acting'));
  const action = target?.action ?? 'resend';
  return (
    <ConfirmAlert
      confirming={confirming}
      working={working}
      intent={action === 'deactivate' ? 'danger' : 'primary'}
      icon={action === 'resend' ? 'envelope' : action === 'deactivate' ? 'disable' : 'confirm'}
      confirmText={ACTION_BUTTON_TEXT[action]}
      question={target ? actionQuestion(target.action, target.user) : ''}
      questionTestId="tenant-action-question"
      onConfirm={() => actor.send({ type: 'action.confirm' })}
      onCancel={() => actor.send({ type: 'action.cancel' })}
    />
  );
}
