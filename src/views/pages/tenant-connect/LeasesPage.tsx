import { Button, Callout, Card, Classes, FormGroup, HTMLSelect, InputGroup, type Intent, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { Lease, LeaseSortColumn } from '../../../api/leases';
import { currencyFormat, formatDay, formatMoney, formatNumber } from '../../../domain/format';
import {
  ANY_EXPIRY,
  EXPIRING_OPTIONS,
  endLeaseQuestion,
  isLeaseStatusFilter,
  LEASE_FIELD,
  LEASE_STATUS_FILTER_LABELS,
  LEASE_STATUS_FILTERS,
  type LeaseProblems,
  type LeaseStatus,
  type LeaseTextField,
  leaseModelLabel,
  leaseOutletOptionText,
  leaseOutletText,
  leaseStatusLabel,
  optionalDayText,
  parseExpiring,
  shownLeaseProblems,
  tierField,
} from '../../../domain/leaseEditor';
import { TURNOVER_MODEL_LABELS, TURNOVER_MODEL_RULES, type TurnoverModel } from '../../../domain/leases';
import {
  type createLeasesListMachine,
  LEASE_ROWS_PER_PAGE_OPTIONS,
  leasesMachine,
} from '../../../machines/tenantConnect/leasesMachine';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { FormDialog } from '../../common/DialogActions';
import { useNoticeToasts } from '../../common/Notifications';
import { PagedList, type PagedListWording } from '../../common/PagedList';
import { SearchForm } from '../../common/SearchForm';
import { usePageActor } from '../../common/usePageActor';
import { PageHeader } from '../../filters/PageHeader';
import type { PageProps } from '../pageProps';
import './tenantConnect.css';
import './leases.css';

type PageActor = ActorRefFrom<typeof leasesMachine>;
type ListActor = ActorRefFrom<ReturnType<typeof createLeasesListMachine>>;

/** The longest search the call takes (the contract's maxLength). */
const SEARCH_MAX_LENGTH = 100;

const STATUS_OPTIONS = LEASE_STATUS_FILTERS.map((value) => ({ value, label: LEASE_STATUS_FILTER_LABELS[value] }));

const STATUS_INTENT: Readonly<Record<LeaseStatus, Intent>> = {
  current: 'success',
  upcoming: 'primary',
  ended: 'none',
};

const MODELS = Object.keys(TURNOVER_MODEL_LABELS) as TurnoverModel[];

const money = (value: number, currency: string) => formatMoney(value, currencyFormat(currency));

/**
 * Tenant Connect's Leases: the leases of the outlets of the selected malls (area, base rent and service charge in the
 * outlet's currency, turnover rent model, term, notice date and status), sortable, searched by outlet name or code,
 * filtered by status and by expiry (ending or with a notice date within 3, 6 or 12 months); a lease added or changed
 * in the editor (its turnover rent tiers with it), or ended on a last day.
 */
export function LeasesPage({ title, header }: PageProps) {
  const actor = usePageActor(leasesMachine);
  useNoticeToasts(actor);
  const list = useSelector(actor, (state) => state?.children.list);
  useNoticeToasts(list);
  const status = useSelector(actor, (state) => state?.context.status ?? 'all');
  const expiring = useSelector(actor, (state) => state?.context.expiring);
  const canAdd = useSelector(actor, (state) => state?.can({ type: 'form.open' }) ?? false);
  return (
    <section className="tenant-connect-page" data-testid="leases-page">
      <PageHeader title={title} header={header} />
      <Card className="leases-card">
        <div className="tenant-connect-toolbar leases-toolbar">
          <SearchForm
            label="Search outlet name or code"
            maxLength={SEARCH_MAX_LENGTH}
            disabled={!list}
            onSearch={(text) => list?.send({ type: 'list.search', text })}
            inputTestId="leases-search"
            buttonTestId="leases-search-button"
          />
          <HTMLSelect
            aria-label="Status"
            data-testid="leases-status-filter"
            value={status}
            options={STATUS_OPTIONS}
            disabled={!actor}
            onChange={(event) => {
              const value = event.currentTarget.value;
              if (isLeaseStatusFilter(value)) actor?.send({ type: 'status.change', status: value });
            }}
          />
          <HTMLSelect
            aria-label="Expiring"
            data-testid="leases-expiring-filter"
            value={expiring === undefined ? ANY_EXPIRY : String(expiring)}
            options={EXPIRING_OPTIONS}
            disabled={!actor}
            onChange={(event) => {
              const months = parseExpiring(event.currentTarget.value);
              if (months !== null) actor?.send({ type: 'expiring.change', months });
            }}
          />
          <Button
            className="leases-add"
            icon="add"
            intent="primary"
            text="Add lease"
            data-testid="lease-add"
            disabled={!canAdd}
            onClick={() => actor?.send({ type: 'form.open' })}
          />
        </div>
        {actor && list ? <LeaseList actor={actor} list={list} /> : <LeaseTable rows={undefined} />}
      </Card>
      {actor ? (
        <>
          <LeaseEditorDialog actor={actor} />
          <EndLeaseDialog actor={actor} />
        </>
      ) : null}
    </section>
  );
}

const WORDING: PagedListWording = {
  failure: 'The leases could not be read.',
  emptyIcon: 'book',
  empty: 'No lease of the selected malls matches these filters.',
  unit: ['lease', 'leases'],
  testId: 'leases',
};

function LeaseList({ actor, list }: { readonly actor: PageActor; readonly list: ListActor }) {
  return (
    <PagedList list={list} wording={WORDING} rowsPerPageOptions={LEASE_ROWS_PER_PAGE_OPTIONS}>
      {(view) => (
        <LeaseTable
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

/** The table's columns; a row's buttons are the actions the machine allows on the lease. */
function leaseColumns(actor: PageActor | undefined): readonly DataColumn<Lease, LeaseSortColumn>[] {
  return [
    {
      key: 'outlet',
      header: 'Outlet',
      kind: 'text',
      sort: 'outlet_name',
      // The name, and its code under it: a long name is cut, never the code.
      render: (lease) => (
        <>
          <span className="lease-outlet-name">{lease.outlet_name}</span>
          {lease.outlet_code.trim() === '' ? null : (
            <span className={`lease-outlet-code ${Classes.TEXT_MUTED}`}>{lease.outlet_code}</span>
          )}
        </>
      ),
      text: leaseOutletText,
    },
    { key: 'mall', header: 'Mall', kind: 'text', sort: 'mall_name', render: (lease) => lease.mall_name },
    { key: 'gla', header: 'GLA (m²)', kind: 'count', sort: 'gla_sqm', render: (lease) => formatNumber(lease.gla_sqm) },
    {
      key: 'base_rent',
      header: 'Base rent',
      kind: 'money',
      sort: 'base_rent',
      render: (lease) => money(lease.base_rent, lease.currency),
    },
    {
      key: 'service_charge',
      header: 'Service charge',
      kind: 'money',
      render: (lease) => money(lease.service_charge, lease.currency),
    },
    {
      key: 'model',
      header: 'Model',
      kind: 'text',
      sort: 'model',
      render: (lease) => leaseModelLabel(lease.turnover_rent.model),
    },
    { key: 'start', header: 'Start', kind: 'date', sort: 'start_date', render: (lease) => formatDay(lease.start_date) },
    { key: 'end', header: 'End', kind: 'date', sort: 'end_date', render: (lease) => formatDay(lease.end_date) },
    {
      key: 'notice',
      header: 'Notice',
      kind: 'date',
      sort: 'notice_date',
      render: (lease) => optionalDayText(lease.notice_date),
    },
    {
      key: 'status',
      header: 'Status',
      kind: 'status',
      render: (lease) => (
        <Tag minimal intent={STATUS_INTENT[lease.status]} data-testid="lease-status">
          {leaseStatusLabel(lease.status)}
        </Tag>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      kind: 'actions',
      render: (lease) => (actor ? <LeaseActions actor={actor} lease={lease} /> : null),
    },
  ];
}

function LeaseTable({
  actor,
  rows,
  sortColumn,
  order,
  onSort,
}: {
  readonly actor?: PageActor;
  /** Undefined while loading: skeleton rows. */
  readonly rows: readonly Lease[] | undefined;
  readonly sortColumn?: LeaseSortColumn;
  readonly order?: 'asc' | 'desc';
  readonly onSort?: (column: LeaseSortColumn) => void;
}) {
  return (
    <DataTable
      label="Leases"
      className="leases-table"
      columns={leaseColumns(actor)}
      rows={actor ? rows : undefined}
      rowKey={(lease) => lease.id}
      rowAttributes={(lease) => ({ 'data-testid': 'lease-row', 'data-lease-id': lease.id })}
      sortColumn={sortColumn}
      order={order}
      onSort={onSort}
      testIdPrefix="leases"
      skeleton={{ label: 'Loading lease', testId: 'leases-skeleton-row' }}
    />
  );
}

function LeaseActions({ actor, lease }: { readonly actor: PageActor; readonly lease: Lease }) {
  const canEdit = useSelector(actor, (state) => state.can({ type: 'form.open', lease }));
  const canEnd = useSelector(actor, (state) => state.can({ type: 'end.open', lease }));
  return (
    <div className="lease-actions">
      <Button
        size="small"
        variant="outlined"
        text="Edit"
        aria-label={`Edit the lease of ${lease.outlet_name}`}
        data-testid="lease-edit"
        disabled={!canEdit}
        onClick={() => actor.send({ type: 'form.open', lease })}
      />
      {lease.status === 'ended' ? null : (
        <Button
          size="small"
          variant="outlined"
          intent="danger"
          text="End lease"
          aria-label={`End the lease of ${lease.outlet_name}`}
          data-testid="lease-end-open"
          disabled={!canEnd}
          onClick={() => actor.send({ type: 'end.open', lease })}
        />
      )}
    </div>
  );
}

/** A field of the editor: its label (required or not), and its problem under it, else its hint. */
function DraftField(props: {
  readonly id: string;
  readonly label: string;
  readonly required?: boolean;
  readonly problem: string | undefined;
  readonly hint?: ReactNode;
  readonly className?: string;
  readonly children: ReactNode;
}) {
  return (
    <FormGroup
      className={props.className}
      label={props.label}
      labelFor={props.id}
      labelInfo={props.required ? '(required)' : undefined}
      intent={props.problem ? 'danger' : 'none'}
      helperText={props.problem ? <span data-testid={`${props.id}-problem`}>{props.problem}</span> : props.hint}
    >
      {props.children}
    </FormGroup>
  );
}

/** The editor's dialog: a new lease (its outlet chosen) or a change of one, with its turnover rent tiers. */
function LeaseEditorDialog({ actor }: { readonly actor: PageActor }) {
  const editor = useSelector(actor, (state) => state.context.editor);
  const saving = useSelector(actor, (state) => state.hasTag('saving'));
  const canSubmit = useSelector(actor, (state) => state.can({ type: 'form.submit' }));
  const canAddTier = useSelector(actor, (state) => state.can({ type: 'form.addTier' }));
  const canRemoveTier = useSelector(actor, (state) => state.can({ type: 'form.removeTier', index: 0 }));
  const draft = editor?.draft;
  const shown: LeaseProblems = draft && editor ? shownLeaseProblems(draft, editor.problems) : {};
  const problemAt = (field: string) =>
    editor?.refusal?.field === field ? editor.refusal.message : (shown[field] ?? undefined);
  const isNew = editor?.lease === undefined;
  const currency =
    editor?.lease?.currency ?? editor?.outlets.find((outlet) => outlet.id === draft?.outletId)?.currency ?? '';
  const inCurrency = (label: string) => (currency === '' ? label : `${label} (${currency})`);
  const currencyTag = currency === '' ? undefined : <Tag minimal>{currency}</Tag>;
  const text = (
    field: LeaseTextField,
    id: string,
    label: string,
    options: { readonly required?: boolean; readonly type?: 'date'; readonly money?: boolean },
  ) => (
    <DraftField id={id} label={label} required={options.required} problem={problemAt(LEASE_FIELD[field])}>
      <InputGroup
        id={id}
        data-testid={id}
        type={options.type ?? 'text'}
        inputMode={options.type === 'date' ? undefined : 'decimal'}
        rightElement={options.money ? currencyTag : undefined}
        value={draft?.[field] ?? ''}
        disabled={saving}
        intent={problemAt(LEASE_FIELD[field]) ? 'danger' : 'none'}
        onValueChange={(value) => actor.send({ type: 'form.change', field, value })}
      />
    </DraftField>
  );
  const model = draft?.model ?? 'higher_of';
  return (
    <FormDialog
      isOpen={editor !== undefined}
      title={isNew ? 'Add lease' : 'Edit lease'}
      className="lease-dialog"
      formTestId="lease-form"
      submitText={isNew ? 'Add' : 'Save'}
      submitTestId="lease-submit"
      busy={saving}
      canSubmit={canSubmit}
      onCancel={() => actor.send({ type: 'form.cancel' })}
      onSubmit={() => actor.send({ type: 'form.submit' })}
    >
      <DraftField id="lease-outlet" label="Outlet" required={isNew} problem={problemAt(LEASE_FIELD.outletId)}>
        {isNew ? (
          <HTMLSelect
            id="lease-outlet"
            data-testid="lease-outlet"
            fill
            value={draft?.outletId ?? ''}
            disabled={saving}
            onChange={(event) => actor.send({ type: 'form.outlet', outletId: Number(event.currentTarget.value) })}
          >
            <option value="" disabled>
              Choose an outlet
            </option>
            {editor?.outlets.map((outlet) => (
              <option key={outlet.id} value={outlet.id}>
                {leaseOutletOptionText(outlet)}
              </option>
            ))}
          </HTMLSelect>
        ) : (
          <InputGroup
            id="lease-outlet"
            data-testid="lease-outlet"
            readOnly
            value={editor?.lease ? `${leaseOutletText(editor.lease)} · ${editor.lease.mall_name}` : ''}
          />
        )}
      </DraftField>
      <div className="lease-form-grid">
        {text('startDate', 'lease-start', 'Start date', { required: true, type: 'date' })}
        {text('endDate', 'lease-end', 'End date', { required: true, type: 'date' })}
        {text('gla', 'lease-gla', 'GLA (m²)', { required: true })}
        {text('baseRent', 'lease-base-rent', 'Base rent a month', { required: true, money: true })}
        {text('serviceCharge', 'lease-service-charge', 'Service charge a month', { required: true, money: true })}
      </div>
      <DraftField
        id="lease-model"
        label="Turnover rent"
        problem={problemAt(LEASE_FIELD.model)}
        hint={<span data-testid="lease-model-rule">{TURNOVER_MODEL_RULES[model]}</span>}
      >
        <HTMLSelect
          id="lease-model"
          data-testid="lease-model"
          fill
          value={model}
          disabled={saving}
          options={MODELS.map((value) => ({ value, label: TURNOVER_MODEL_LABELS[value] }))}
          onChange={(event) => actor.send({ type: 'form.model', model: event.currentTarget.value })}
        />
      </DraftField>
      <fieldset className="lease-tiers" data-testid="lease-tiers">
        <legend>{inCurrency('Tiers')}</legend>
        {problemAt(LEASE_FIELD.tiers) ? (
          <Callout intent="danger" compact data-testid="lease-tiers-problem">
            {problemAt(LEASE_FIELD.tiers)}
          </Callout>
        ) : null}
        {draft?.tiers.map((tier, index) => {
          const fromId = `lease-tier-from-${index}`;
          const rateId = `lease-tier-rate-${index}`;
          const fromProblem = problemAt(tierField(index, 'from'));
          const rateProblem = problemAt(tierField(index, 'rate'));
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a tier is its place in the list (the contract's order).
            <div className="lease-tier" key={index} data-testid="lease-tier">
              <span className="lease-tier-name">Tier {index + 1}</span>
              <DraftField id={fromId} label="From" problem={fromProblem}>
                <InputGroup
                  id={fromId}
                  data-testid={fromId}
                  inputMode="decimal"
                  aria-label={`Tier ${index + 1} from`}
                  value={tier.from}
                  disabled={saving}
                  intent={fromProblem ? 'danger' : 'none'}
                  onValueChange={(value) => actor.send({ type: 'form.tier', index, part: 'from', value })}
                />
              </DraftField>
              <DraftField id={rateId} label="Rate %" problem={rateProblem}>
                <InputGroup
                  id={rateId}
                  data-testid={rateId}
                  inputMode="decimal"
                  aria-label={`Tier ${index + 1} rate %`}
                  value={tier.rate}
                  disabled={saving}
                  intent={rateProblem ? 'danger' : 'none'}
                  onValueChange={(value) => actor.send({ type: 'form.tier', index, part: 'rate', value })}
                />
              </DraftField>
              <Button
                className="lease-tier-remove"
                variant="minimal"
                icon="cross"
                aria-label={`Remove tier ${index + 1}`}
                data-testid={`lease-tier-remove-${index}`}
                disabled={saving || !canRemoveTier}
                onClick={() => actor.send({ type: 'form.removeTier', index })}
              />
            </div>
          );
        })}
        <Button
          icon="add"
          variant="outlined"
          text="Add tier"
          data-testid="lease-add-tier"
          disabled={saving || !canAddTier}
          onClick={() => actor.send({ type: 'form.addTier' })}
        />
      </fieldset>
      <div className="lease-form-grid">
        {text('noticeDate', 'lease-notice', 'Notice date', { type: 'date' })}
        {text('renewalDate', 'lease-renewal', 'Renewal date', { type: 'date' })}
      </div>
    </FormDialog>
  );
}

/** The End lease dialog: the question and the last day. */
function EndLeaseDialog({ actor }: { readonly actor: PageActor }) {
  const ending = useSelector(actor, (state) => state.context.ending);
  const working = useSelector(actor, (state) => state.hasTag('ending'));
  const canSubmit = useSelector(actor, (state) => state.can({ type: 'end.submit' }));
  const problem = ending?.refusal ?? (ending && ending.day.trim() !== '' ? ending.problem : undefined);
  return (
    <FormDialog
      isOpen={ending !== undefined}
      title="End lease"
      className="lease-dialog"
      formTestId="lease-end-form"
      submitText="End lease"
      submitTestId="lease-end-submit"
      busy={working}
      canSubmit={canSubmit}
      onCancel={() => actor.send({ type: 'end.cancel' })}
      onSubmit={() => actor.send({ type: 'end.submit' })}
    >
      <p data-testid="lease-end-question">{ending ? endLeaseQuestion(ending.lease) : ''}</p>
      <DraftField id="lease-end-day" label="Last day" required problem={problem}>
        <InputGroup
          id="lease-end-day"
          data-testid="lease-end-day"
          type="date"
          value={ending?.day ?? ''}
          disabled={working}
          intent={problem ? 'danger' : 'none'}
          onValueChange={(day) => actor.send({ type: 'end.change', day })}
        />
      </DraftField>
    </FormDialog>
  );
}
