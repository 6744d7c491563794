import { Callout, Card, H5, NonIdealState } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { TenantRentStatement } from '../../../api/rentStatements';
import { formatMonth } from '../../../domain/format';
import {
  leaseTermsInWords,
  money,
  NO_DECLARATION_NOTE,
  NO_LEASE_MESSAGE,
  RENT_STATEMENT_CHOOSE_MESSAGE,
  STATEMENT_PARTIAL_NOTE,
  type StatementLine,
  statementLines,
  statementTitle,
} from '../../../domain/rentStatements';
import { rentStatementMachine } from '../../../machines/tenants/rentStatementMachine';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { useNoticeToasts } from '../../common/Notifications';
import { usePageActor } from '../../common/usePageActor';
import { MonthPicker } from '../../filters/MonthPicker';
import { PageTitle } from '../../filters/PageTitle';
import { isSettled, PanelFailure, PanelSkeleton, SubscribeToolbar } from '../../reports/ReportParts';
import type { PageProps } from '../pageProps';
import './rentStatement.css';

type Status = 'idle' | 'loading' | 'loaded' | 'empty' | 'failed';

/**
 * The tenant's Rent Statement (issue 33): for the outlet of the top bar and the month chosen here, its lease's terms
 * in words and the month's rent line by line (the sales it is on, base rent, each tier, turnover rent, service
 * charge, GST, total due); 'No lease covers this month.' when none does.
 */
export function RentStatementPage({ title }: PageProps) {
  const actor = usePageActor(rentStatementMachine);
  useNoticeToasts(actor);
  const status = useSelector(actor, (state): Status => {
    if (!state || state.hasTag('loading')) return 'loading';
    if (state.matches('failure')) return 'failed';
    if (state.matches('empty')) return 'empty';
    return state.matches('idle') ? 'idle' : 'loaded';
  });
  const answer = useSelector(actor, (state) => state?.context.answer);

  return (
    <section className="rent-statement-page" data-testid="rent-statement-page">
      <header className="rent-statement-header">
        <PageTitle title={title} />
        <div className="rent-statement-filters">
          <MonthPicker />
          {/* Ready once the statement of a chosen outlet and month has settled: the server's browser prints it. */}
          <SubscribeToolbar report={{ ready: isSettled(status) }} />
        </div>
      </header>
      {status === 'idle' ? (
        <Callout intent="primary" data-testid="rent-statement-choose">
          {RENT_STATEMENT_CHOOSE_MESSAGE}
        </Callout>
      ) : null}
      {status === 'loading' ? <StatementSkeleton /> : null}
      {status === 'failed' ? (
        <Card className="rent-statement-card">
          <PanelFailure label="Rent statement" retry={() => actor?.send({ type: 'statement.retry' })} />
        </Card>
      ) : null}
      {status === 'empty' ? (
        <Card className="rent-statement-card" data-testid="rent-statement-no-lease">
          <NonIdealState
            icon="document"
            title={NO_LEASE_MESSAGE}
            description={answer ? formatMonth(answer.month) : undefined}
          />
        </Card>
      ) : null}
      {status === 'loaded' && answer ? <Statement answer={answer} /> : null}
    </section>
  );
}

function StatementSkeleton() {
  return (
    <div className="rent-statement-body" aria-busy>
      <Card className="rent-statement-card">
        <H5>Lease terms</H5>
        <PanelSkeleton label="Lease terms" className="rent-statement-skeleton" />
      </Card>
      <Card className="rent-statement-card">
        <H5>Rent of the month</H5>
        <PanelSkeleton label="Rent of the month" className="rent-statement-skeleton" />
      </Card>
    </div>
  );
}

const LINE_COLUMNS = (currency: string): DataColumn<StatementLine>[] => [
  // A line says how its amount is computed: it wraps rather than being cut.
  { key: 'line', header: 'Line', kind: 'text', render: (line) => line.text },
  { key: 'amount', header: 'Amount', kind: 'money', render: (line) => money(line.amount, currency) },
];

/** The lease's terms and the month's lines. */
function Statement({ answer }: { readonly answer: TenantRentStatement }) {
  const { lease, statement, currency } = answer;
  const terms = useMemo(() => (lease ? leaseTermsInWords(lease) : []), [lease]);
  const lines = useMemo(
    () => (lease && statement ? statementLines(statement, lease.turnover_rent.model, currency) : undefined),
    [lease, statement, currency],
  );
  const columns = useMemo(() => LINE_COLUMNS(currency), [currency]);
  if (!lease || !statement || !lines) return null;
  const heading = statementTitle(answer.month);
  return (
    <div className="rent-statement-body">
      <Card className="rent-statement-card" data-testid="rent-statement-terms">
        <H5>Lease terms</H5>
        <dl className="rent-terms">
          {terms.map((term) => (
            <div key={term.label} className="rent-term">
              <dt>{term.label}</dt>
              <dd>{term.text}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <Card className="rent-statement-card" data-testid="rent-statement-lines">
        <H5>{heading}</H5>
        {statement.partial ? (
          <Callout
            compact
            intent="warning"
            icon="time"
            className="rent-statement-note"
            data-testid="rent-statement-partial"
          >
            {STATEMENT_PARTIAL_NOTE}
          </Callout>
        ) : null}
        {statement.basis === 'captured' ? (
          <Callout compact icon="info-sign" className="rent-statement-note" data-testid="rent-statement-basis">
            {NO_DECLARATION_NOTE}
          </Callout>
        ) : null}
        {statement.invoice_number === null ? null : (
          <p className="rent-statement-invoice" data-testid="rent-statement-invoice">
            Invoice {statement.invoice_number}
          </p>
        )}
        <DataTable
          label={`${heading}: lines`}
          className="rent-lines"
          testId="rent-statement-table"
          columns={columns}
          rows={lines.lines}
          rowKey={(line) => line.key}
          rowAttributes={(line) => ({ 'data-kind': line.kind })}
          skeleton={{ label: 'Loading', testId: 'rent-statement-skeleton-row' }}
          footer={[lines.total.text, money(lines.total.amount, currency)]}
        />
      </Card>
    </div>
  );
}
