import { Alert, Button, ButtonGroup, Card, Classes, FormGroup, HTMLSelect, InputGroup, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { NonTradingDay, NonTradingSortColumn } from '../../../api/nonTradingDays';
import {
  DECLARED_BY_LABELS,
  declarationProblem,
  latestDeclarableDay,
  NON_TRADING_PERIODS,
  NON_TRADING_REASON_MAX_LENGTH,
} from '../../../domain/nonTradingDays';
import {
  type createNonTradingDaysMachine,
  NON_TRADING_ROWS_PER_PAGE_OPTIONS,
  type NonTradingListMachine,
} from '../../../machines/tenantConnect/nonTradingDaysMachine';
import { type DataColumn, DataTable } from '../../common/DataTable';
import './nonTradingDays.css';
import { formatDateTime, formatDay } from '../../../domain/format';
import { useNoticeToasts } from '../../common/Notifications';
import { PagedList, type PagedListWording } from '../../common/PagedList';

/** The parts of the two non-trading-day pages: the declaration form, the days listed, and the removal's question. */

export type NonTradingDaysActor = ActorRefFrom<ReturnType<typeof createNonTradingDaysMachine>>;
type ListActor = ActorRefFrom<NonTradingListMachine>;

/** What the page's table shows and says: the mall's list has the outlet column and removes; the tenant withdraws. */
export interface NonTradingTableSetup {
  readonly withOutlet: boolean;
  /** The removal button's text: 'Remove' or 'Withdraw'. */
  readonly removeText: string;
  /** What a day the page may not remove says instead of the button. */
  readonly notRemovableText?: string;
}

const WORDING: PagedListWording = {
  failure: 'The non-trading days could not be read.',
  emptyIcon: 'calendar',
  empty: 'No non-trading day in these days.',
  unit: ['day', 'days'],
  testId: 'ntd',
};

type RemovalOf = (row: NonTradingDay) => 'enabled' | 'waiting' | 'refused';

function columnsOf(
  setup: NonTradingTableSetup,
  removal: RemovalOf | undefined,
  onRemove: ((row: NonTradingDay) => void) | undefined,
): DataColumn<NonTradingDay, NonTradingSortColumn>[] {
  const outlet: DataColumn<NonTradingDay, NonTradingSortColumn> = {
    key: 'outlet',
    header: 'Outlet',
    kind: 'text',
    sort: 'outlet_name',
    render: (row) => row.outlet_name,
  };
  return [
    { key: 'day', header: 'Day', kind: 'date', sort: 'day', render: (row) => formatDay(row.day) },
    ...(setup.withOutlet ? [outlet] : []),
    { key: 'reason', header: 'Reason', kind: 'text', sort: 'reason', render: (row) => row.reason },
    {
      key: 'declared_by',
      header: 'Declared by',
      kind: 'status',
      sort: 'declared_by',
      render: (row) => (
        <Tag minimal intent={row.declared_by === 'tenant' ? 'primary' : 'none'}>
          {DECLARED_BY_LABELS[row.declared_by]}
        </Tag>
      ),
    },
    { key: 'who', header: 'Who', kind: 'text', sort: 'user_email', render: (row) => row.user_email ?? '—' },
    {
      key: 'when',
      header: 'When',
      kind: 'datetime',
      sort: 'declared_at',
      render: (row) => formatDateTime(row.declared_at),
    },
    {
      key: 'action',
      header: 'Action',
      kind: 'actions',
      render: (row) =>
        removal === undefined ? null : removal(row) === 'refused' ? (
          <span className={Classes.TEXT_MUTED}>{setup.notRemovableText}</span>
        ) : (
          <Button
            small
            minimal
            intent="danger"
            icon="trash"
            text={setup.removeText}
            data-testid="ntd-remove"
            aria-label={`${setup.removeText} ${formatDay(row.day)}${setup.withOutlet ? ` of ${row.outlet_name}` : ''}`}
            disabled={removal(row) !== 'enabled'}
            onClick={() => onRemove?.(row)}
          />
        ),
    },
  ];
}

/** The form that declares a day: the outlet (the mall's page), the day and the reason. */
export function DeclarationForm({
  actor,
  withOutlet,
}: {
  readonly actor: NonTradingDaysActor;
  readonly withOutlet: boolean;
}) {
  const draft = useSelector(actor, (state) => state.context.draft);
  const outlets = useSelector(actor, (state) => state.context.outlets);
  const today = useSelector(actor, (state) => state.context.today);
  const canDeclare = useSelector(actor, (state) => state.can({ type: 'declaration.submit' }));
  const declaring = useSelector(actor, (state) => state.matches('declaring'));
  const touched = draft.day !== '' || draft.reason !== '';
  const problem = today === undefined ? undefined : declarationProblem(draft, today);
  return (
    <Card className="ntd-form-card">
      <h2 className="ntd-heading">Declare a non-trading day</h2>
      <form
        className="ntd-form"
        data-testid="ntd-form"
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: 'declaration.submit' });
        }}
      >
        {withOutlet ? (
          <FormGroup label="Outlet" labelFor="ntd-outlet">
            <HTMLSelect
              id="ntd-outlet"
              data-testid="ntd-outlet"
              value={draft.outletId === undefined ? '' : String(draft.outletId)}
              onChange={(event) => {
                const value = event.currentTarget.value;
                actor.send({ type: 'declaration.outlet', outletId: value === '' ? undefined : Number(value) });
              }}
              options={[
                { value: '', label: 'Choose an outlet' },
                ...outlets.map((outlet) => ({ value: String(outlet.id), label: outlet.name })),
              ]}
            />
          </FormGroup>
        ) : null}
        <FormGroup label="Day" labelFor="ntd-day">
          <InputGroup
            id="ntd-day"
            type="date"
            data-testid="ntd-day"
            value={draft.day}
            max={today === undefined ? undefined : latestDeclarableDay(today)}
            onValueChange={(value) => actor.send({ type: 'declaration.change', field: 'day', value })}
          />
        </FormGroup>
        <FormGroup label="Reason" labelFor="ntd-reason" className="ntd-reason">
          <InputGroup
            id="ntd-reason"
            data-testid="ntd-reason"
            value={draft.reason}
            maxLength={NON_TRADING_REASON_MAX_LENGTH}
            placeholder="Renovation, private event, public holiday closure…"
            onValueChange={(value) => actor.send({ type: 'declaration.change', field: 'reason', value })}
          />
        </FormGroup>
        <Button
          type="submit"
          intent="primary"
          icon="calendar"
          text="Declare"
          data-testid="ntd-declare"
          disabled={!canDeclare}
          loading={declaring}
        />
      </form>
      {touched && problem ? (
        <p className={Classes.TEXT_MUTED} data-testid="ntd-problem">
          {problem}
        </p>
      ) : null}
    </Card>
  );
}

/** The days listed: those of the header's date range, or those declared ahead. */
export function PeriodSwitch({ actor }: { readonly actor: NonTradingDaysActor }) {
  const period = useSelector(actor, (state) => state.context.period);
  return (
    <ButtonGroup role="group" aria-label="Days listed" data-testid="ntd-period">
      {NON_TRADING_PERIODS.map((option) => (
        <Button
          key={option.value}
          text={option.label}
          active={option.value === period}
          aria-pressed={option.value === period}
          data-testid={`ntd-period-${option.value}`}
          onClick={() => actor.send({ type: 'period.change', period: option.value })}
        />
      ))}
    </ButtonGroup>
  );
}

/** The days of the list: a skeleton while they load, 'No Data' for none, a retry when the call failed. */
export function NonTradingDaysList({
  actor,
  list,
  setup,
}: {
  readonly actor: NonTradingDaysActor;
  readonly list: ListActor;
  readonly setup: NonTradingTableSetup;
}) {
  // The page's state decides which days may be removed now (none while a declaration or removal is under way).
  const pageState = useSelector(actor, (state) => state);
  return (
    <PagedList list={list} wording={WORDING} rowsPerPageOptions={NON_TRADING_ROWS_PER_PAGE_OPTIONS}>
      {(view) => (
        <NonTradingTable
          setup={setup}
          rows={view.rows}
          sortColumn={view.sortColumn}
          order={view.order}
          onSort={view.onSort}
          removal={(row) =>
            pageState.can({ type: 'removal.ask', row }) ? 'enabled' : pageState.matches('ready') ? 'refused' : 'waiting'
          }
          onRemove={(row) => actor.send({ type: 'removal.ask', row })}
        />
      )}
    </PagedList>
  );
}

export function NonTradingTable({
  setup,
  rows,
  sortColumn,
  order,
  onSort,
  removal,
  onRemove,
}: {
  readonly setup: NonTradingTableSetup;
  /** Undefined while loading: skeleton rows. */
  readonly rows: readonly NonTradingDay[] | undefined;
  readonly sortColumn?: NonTradingSortColumn;
  readonly order?: 'asc' | 'desc';
  readonly onSort?: (column: NonTradingSortColumn) => void;
  /** Whether the day may be removed now, not until the page is ready again, or not at all here. */
  readonly removal?: RemovalOf;
  readonly onRemove?: (row: NonTradingDay) => void;
}) {
  return (
    <DataTable
      label="Non-trading days"
      className="ntd-table"
      testId="ntd-table"
      columns={columnsOf(setup, removal, onRemove)}
      rows={rows}
      rowKey={(row) => `${row.outlet_id}:${row.day}`}
      rowAttributes={(row) => ({ 'data-testid': 'ntd-row', 'data-day': row.day })}
      sortColumn={sortColumn}
      order={order}
      onSort={onSort}
      testIdPrefix="ntd"
      skeleton={{ label: 'Loading day', testId: 'ntd-skeleton-row' }}
    />
  );
}

/** Asks before a day is removed (or withdrawn), and shows the removal under way. */
export function RemovalAlert({ actor, verb }: { readonly actor: NonTradingDaysActor; readonly verb: string }) {
  const removal = useSelector(actor, (state) => state.context.removal);
  const open = useSelector(actor, (state) => state.matches('confirming') || state.matches('removing'));
  const removing = useSelector(actor, (state) => state.matches('removing'));
  return (
    <Alert
      isOpen={open}
      intent="danger"
      icon="trash"
      cancelButtonText="Cancel"
      confirmButtonText={verb}
      loading={removing}
      onCancel={() => actor.send({ type: 'removal.cancel' })}
      onConfirm={() => actor.send({ type: 'removal.confirm' })}
    >
      {removal ? (
        <p data-testid="ntd-removal-question">
          {verb} the non-trading day {formatDay(removal.day)} of {removal.outlet_name} ({removal.reason})?
        </p>
      ) : null}
    </Alert>
  );
}

/**
 * What both pages show under their header: the declaration form, the period switch and the days listed in a card,
 * and the removal's question; `links` between the form and the header (the tenant's way back to its sales review).
 */
export function NonTradingDaysBody({
  actor,
  setup,
  links,
}: {
  readonly actor: NonTradingDaysActor | undefined;
  readonly setup: NonTradingTableSetup;
  readonly links?: ReactNode;
}) {
  useNoticeToasts(actor);
  const list = useSelector(actor, (state) => state?.children.list);
  useNoticeToasts(list);
  return (
    <>
      {links}
      {actor ? <DeclarationForm actor={actor} withOutlet={setup.withOutlet} /> : null}
      <Card className="tenant-connect-card">
        <div className="tenant-connect-toolbar">{actor ? <PeriodSwitch actor={actor} /> : null}</div>
        {actor && list ? (
          <NonTradingDaysList actor={actor} list={list} setup={setup} />
        ) : (
          <NonTradingTable setup={setup} rows={undefined} />
        )}
      </Card>
      {actor ? <RemovalAlert actor={actor} verb={setup.removeText} /> : null}
    </>
  );
}
