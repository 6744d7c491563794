import { Alert, Button, Callout, Card, Classes, FormGroup, H2, HTMLSelect, InputGroup, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useSearch } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { AccountOption, XeroPosting, XeroPostingSortColumn } from '../../../api/apps';
import { XERO_OUTCOMES, xeroOutcomeOf } from '../../../domain/apps';
import { formatDateTime, formatMoney } from '../../../domain/format';
import type { createXeroAccountsMachine, XeroAccountsValue } from '../../../machines/xeroAccountsMachine';
import { type createXeroMachine, hasChosenAccounts, xeroMachine } from '../../../machines/xeroMachine';
import {
  type createXeroPostingsMachine,
  XERO_POSTINGS_ROWS_PER_PAGE_OPTIONS,
} from '../../../machines/xeroPostingsMachine';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { useNoticeToasts } from '../../common/Notifications';
import { PagedList, type PagedListWording } from '../../common/PagedList';
import { usePageActor } from '../../common/usePageActor';
import { PageTitle } from '../../filters/PageTitle';
import type { PageProps } from '../pageProps';
import './apps.css';

type PageActor = ActorRefFrom<ReturnType<typeof createXeroMachine>>;
type PostingsActor = ActorRefFrom<ReturnType<typeof createXeroPostingsMachine>>;
type AccountsActor = ActorRefFrom<ReturnType<typeof createXeroAccountsMachine>>;

/**
 * /apps/xero: the client's Xero connection (connect through Xero's sign-in, its organisation, disconnect), the
 * accounts of the daily sales journals, posting a past day now, and the log of what was posted.
 */
export function XeroPage({ title }: PageProps) {
  const search = useSearch();
  // The callback's outcome as the page opened: the machine's input, constant while the page is shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once, when the page opens
  const input = useMemo(() => ({ outcome: xeroOutcomeOf(search) }), []);
  const actor = usePageActor(xeroMachine, input);
  useNoticeToasts(actor);
  const postings = useSelector(actor, (state) => state?.children.postings);
  useNoticeToasts(postings);
  const accounts = useSelector(actor, (state) => state?.children.accounts);
  useNoticeToasts(accounts);
  const waiting = useSelector(actor, (state) => state === undefined || state.matches('waiting'));
  return (
    <section className="apps-page" data-testid="xero-page">
      <PageTitle title={title} />
      {actor ? <Outcome actor={actor} /> : null}
      {waiting ? <Callout intent="primary">Choose a client to connect it to Xero.</Callout> : null}
      {actor && !waiting ? (
        <div className="xero-grid">
          <ConnectionCard actor={actor} />
          {accounts ? <AccountsCard actor={actor} accounts={accounts} /> : null}
          {accounts ? <PostDayCard actor={actor} /> : null}
          <Card className="apps-card xero-log" data-testid="xero-log">
            <H2 className="apps-card-title">Posting log</H2>
            {postings ? <PostingLog list={postings} /> : <PostingTable rows={undefined} />}
          </Card>
          <DisconnectAlert actor={actor} />
        </div>
      ) : null}
    </section>
  );
}

/** What Xero's callback told, until dismissed. */
function Outcome({ actor }: { readonly actor: PageActor }) {
  const outcome = useSelector(actor, (state) => state.context.outcome);
  if (!outcome) return null;
  return (
    <Callout
      intent={outcome === 'connected' ? 'success' : 'danger'}
      className="xero-outcome"
      data-testid="xero-outcome"
      role={outcome === 'connected' ? 'status' : 'alert'}
    >
      <span>{XERO_OUTCOMES[outcome]}</span>{' '}
      <Button variant="minimal" size="small" text="Dismiss" onClick={() => actor.send({ type: 'outcome.dismiss' })} />
    </Callout>
  );
}

function ConnectionCard({ actor }: { readonly actor: PageActor }) {
  const loading = useSelector(actor, (state) => state.hasTag('loading'));
  const failed = useSelector(actor, (state) => state.matches({ client: { connection: 'failure' } }));
  const connecting = useSelector(actor, (state) => state.hasTag('connecting'));
  const disconnecting = useSelector(actor, (state) => state.hasTag('disconnecting'));
  const notConnected = useSelector(actor, (state) =>
    state.matches({ client: { connection: { ready: 'notConnected' } } }),
  );
  const expired = useSelector(actor, (state) => state.matches({ client: { connection: { ready: 'expired' } } }));
  const info = useSelector(actor, (state) => state.context.info?.xeroInfo ?? null);
  const canConnect = useSelector(actor, (state) => state.can({ type: 'xero.connect' }));
  const canDisconnect = useSelector(actor, (state) => state.can({ type: 'xero.disconnect' }));
  return (
    <Card className="apps-card" data-testid="xero-connection">
      <div className="apps-card-heading">
        <H2 className="apps-card-title">Connection</H2>
        {loading ? (
          <Tag className={Classes.SKELETON}>Loading</Tag>
        ) : notConnected ? (
          <Tag data-testid="xero-status">Not connected</Tag>
        ) : expired ? (
          <Tag intent="warning" data-testid="xero-status">
            Connection expired
          </Tag>
        ) : info ? (
          <Tag intent="success" data-testid="xero-status">
            Connected
          </Tag>
        ) : null}
      </div>
      {failed ? (
        <Callout intent="danger">
          The connection could not be read.{' '}
          <Button icon="refresh" text="Retry" onClick={() => actor.send({ type: 'xero.retry' })} />
        </Callout>
      ) : null}
      {notConnected ? (
        <p>Connect the client's Xero organisation to post each day's sales of its outlets as manual journals.</p>
      ) : null}
      {expired && info ? (
        <Callout intent="warning" data-testid="xero-expired">
          Xero no longer accepts this connection to {info.organisation_name}. Connect again to go on posting.
        </Callout>
      ) : null}
      {info && !loading ? (
        <dl className="xero-facts" data-testid="xero-info">
          <dt>Organisation</dt>
          <dd data-testid="xero-organisation">{info.organisation_name}</dd>
          <dt>Tenant id</dt>
          <dd>
            <code>{info.tenant_id}</code>
          </dd>
          <dt>Base currency</dt>
          <dd>{info.currency ?? 'Unknown'}</dd>
          <dt>Connected</dt>
          <dd data-testid="xero-connected">
            {formatDateTime(info.connected_at)}
            {info.connected_by ? ` by ${info.connected_by}` : ''}
          </dd>
        </dl>
      ) : null}
      <div className="apps-card-actions">
        {!loading && !failed ? (
          <Button
            intent={info && !expired ? 'none' : 'primary'}
            icon="link"
            text={notConnected ? 'Connect to Xero' : 'Connect again'}
            data-testid="xero-connect"
            loading={connecting}
            disabled={!canConnect}
            onClick={() => actor.send({ type: 'xero.connect' })}
          />
        ) : null}
        {info && !loading ? (
          <Button
            intent="danger"
            icon="disable"
            text="Disconnect"
            data-testid="xero-disconnect"
            loading={disconnecting}
            disabled={!canDisconnect}
            onClick={() => actor.send({ type: 'xero.disconnect' })}
          />
        ) : null}
      </div>
    </Card>
  );
}

const ACCOUNT_FIELDS: readonly {
  readonly key: keyof Omit<XeroAccountsValue, 'clientId'>;
  readonly label: string;
  readonly helper: string;
  readonly options: 'salesAccounts' | 'taxAccounts' | 'clearingAccounts';
}[] = [
  { key: 'salesAccount', label: 'Sales account', helper: "Credited with the day's sales.", options: 'salesAccounts' },
  { key: 'taxAccount', label: 'Tax rate', helper: 'The sales are tax-inclusive at this rate.', options: 'taxAccounts' },
  {
    key: 'clearingAccount',
    label: 'Clearing account',
    helper: "Debited with the day's takings (a bank or current asset account).",
    options: 'clearingAccounts',
  },
];

const optionLabel = (option: AccountOption) => `${option.code} – ${option.name}`;

function AccountsCard({ actor, accounts }: { readonly actor: PageActor; readonly accounts: AccountsActor }) {
  const options = useSelector(actor, (state) => state.context.info?.xeroOptions);
  const draft = useSelector(accounts, (state) => state.context.draft);
  const saving = useSelector(accounts, (state) => state.hasTag('saving'));
  const canSave = useSelector(accounts, (state) => state.can({ type: 'editor.save' }));
  const canCancel = useSelector(accounts, (state) => state.can({ type: 'editor.cancel' }));
  return (
    <Card className="apps-card" data-testid="xero-accounts">
      <H2 className="apps-card-title">Journal accounts</H2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          accounts.send({ type: 'editor.save' });
        }}
      >
        {ACCOUNT_FIELDS.map((field) => (
          <FormGroup key={field.key} label={field.label} labelFor={`xero-${field.key}`} helperText={field.helper}>
            <HTMLSelect
              id={`xero-${field.key}`}
              data-testid={`xero-${field.key}`}
              fill
              value={draft?.[field.key] ?? ''}
              disabled={!draft || saving}
              options={[
                { value: '', label: `Choose the ${field.label.toLowerCase()}`, disabled: true },
                ...(options?.[field.options] ?? []).map((option) => ({
                  value: option.code,
                  label: optionLabel(option),
                })),
              ]}
              onChange={(event) => {
                if (draft)
                  accounts.send({ type: 'editor.change', value: { ...draft, [field.key]: event.currentTarget.value } });
              }}
            />
          </FormGroup>
        ))}
        <div className="apps-card-actions">
          <Button text="Cancel" disabled={!canCancel} onClick={() => accounts.send({ type: 'editor.cancel' })} />
          <Button
            type="submit"
            intent="primary"
            text="Save"
            data-testid="xero-accounts-save"
            loading={saving}
            disabled={!canSave}
          />
        </div>
      </form>
    </Card>
  );
}

function PostDayCard({ actor }: { readonly actor: PageActor }) {
  const day = useSelector(actor, (state) => state.context.day);
  const today = useSelector(actor, (state) => state.context.today);
  const posting = useSelector(actor, (state) => state.hasTag('posting'));
  const canPost = useSelector(actor, (state) => state.can({ type: 'posting.post' }));
  const accountsChosen = useSelector(actor, (state) => hasChosenAccounts(state.context.info));
  const last = useSelector(actor, (state) => state.context.lastPosting);
  return (
    <Card className="apps-card" data-testid="xero-post">
      <H2 className="apps-card-title">Post a day now</H2>
      <p className={Classes.TEXT_MUTED}>
        Every day's sales are posted after the day has ended in every mall. Post a past day now; a day already posted is
        never posted twice.
      </p>
      {!accountsChosen ? <Callout intent="warning">Save the journal accounts first.</Callout> : null}
      <form
        className="xero-post-form"
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: 'posting.post' });
        }}
      >
        <FormGroup label="Day" labelFor="xero-day" inline>
          <InputGroup
            id="xero-day"
            type="date"
            data-testid="xero-day"
            value={day}
            max={today}
            onChange={(event) => actor.send({ type: 'posting.day', day: event.currentTarget.value })}
          />
        </FormGroup>
        <Button
          type="submit"
          intent="primary"
          icon="upload"
          text="Post now"
          data-testid="xero-post-now"
          loading={posting}
          disabled={!canPost}
        />
      </form>
      {last ? (
        <p data-testid="xero-post-result" role="status">
          {last.day}: {last.postedNow} posted now; {last.rows.filter((row) => row.status === 'posted').length} of{' '}
          {last.rows.length} outlets posted in all.
        </p>
      ) : null}
    </Card>
  );
}

function DisconnectAlert({ actor }: { readonly actor: PageActor }) {
  const open = useSelector(actor, (state) => state.matches({ client: { connection: 'confirmingDisconnect' } }));
  const organisation = useSelector(actor, (state) => state.context.info?.xeroInfo?.organisation_name ?? 'Xero');
  return (
    <Alert
      isOpen={open}
      intent="danger"
      icon="disable"
      confirmButtonText="Disconnect"
      cancelButtonText="Keep connected"
      canEscapeKeyCancel
      onConfirm={() => actor.send({ type: 'xero.disconnect.confirm' })}
      onCancel={() => actor.send({ type: 'xero.disconnect.cancel' })}
    >
      <p>
        Disconnect {organisation}? Its tokens are revoked and forgotten, and nothing more is posted until the client is
        connected again. The posting log is kept.
      </p>
    </Alert>
  );
}

const STATUS_INTENT: Readonly<Record<XeroPosting['status'], 'success' | 'danger' | 'none'>> = {
  posted: 'success',
  failed: 'danger',
  skipped: 'none',
};
const STATUS_NAME: Readonly<Record<XeroPosting['status'], string>> = {
  posted: 'Posted',
  failed: 'Failed',
  skipped: 'Skipped',
};

const COLUMNS: readonly DataColumn<XeroPosting, XeroPostingSortColumn>[] = [
  { key: 'day', header: 'Day', kind: 'date', sort: 'day', render: (row) => row.day },
  { key: 'outlet', header: 'Outlet', kind: 'text', sort: 'outlet_name', render: (row) => row.outlet_name },
  {
    key: 'amount',
    header: 'Sales',
    kind: 'money',
    sort: 'amount',
    render: (row) => formatMoney(row.amount, row.currency),
  },
  {
    key: 'status',
    header: 'Status',
    kind: 'status',
    sort: 'status',
    render: (row) => (
      <>
        <Tag intent={STATUS_INTENT[row.status]} title={row.message ?? undefined}>
          {STATUS_NAME[row.status]}
        </Tag>
        {row.message ? <div className={`${Classes.TEXT_MUTED} xero-message`}>{row.message}</div> : null}
      </>
    ),
  },
  {
    key: 'journal',
    header: 'Xero journal',
    kind: 'id',
    render: (row) => (row.journal_id ? <code data-testid="xero-log-journal">{row.journal_id}</code> : null),
  },
];

const WORDING: PagedListWording = {
  failure: 'The posting log could not be read.',
  emptyIcon: 'th-list',
  empty: 'Nothing has been posted to Xero yet.',
  unit: ['row', 'rows'],
  testId: 'xero-log',
};

function PostingLog({ list }: { readonly list: PostingsActor }) {
  return (
    <PagedList list={list} wording={WORDING} rowsPerPageOptions={XERO_POSTINGS_ROWS_PER_PAGE_OPTIONS}>
      {(view) => <PostingTable rows={view.rows} sortColumn={view.sortColumn} order={view.order} onSort={view.onSort} />}
    </PagedList>
  );
}

function PostingTable({
  rows,
  sortColumn,
  order,
  onSort,
}: {
  /** Undefined while loading: skeleton rows. */
  readonly rows: readonly XeroPosting[] | undefined;
  readonly sortColumn?: XeroPostingSortColumn;
  readonly order?: 'asc' | 'desc';
  readonly onSort?: (column: XeroPostingSortColumn) => void;
}) {
  return (
    <DataTable
      label="Posting log"
      className="xero-log-table"
      columns={COLUMNS}
      rows={rows}
      rowKey={(row) => `${row.outlet_id}:${row.day}`}
      rowAttributes={() => ({ 'data-testid': 'xero-log-row' })}
      sortColumn={sortColumn}
      order={order}
      onSort={onSort}
      testIdPrefix="xero-log"
      skeleton={{ label: 'Loading posting', testId: 'xero-log-skeleton-row' }}
    />
  );
}
