import {
  Button,
  Callout,
  Card,
  Classes,
  FormGroup,
  H2,
  HTMLTable,
  InputGroup,
  NonIdealState,
  TextArea,
} from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { currencyFormat, formatMoney, formatMonth } from '../../../domain/format';
import {
  checkDraft,
  dayLabel,
  dayName,
  displayedTotal,
  GTO_CHOOSE_OUTLET_MESSAGE,
  GTO_HEADER_HELD_MESSAGE,
  GTO_MONTH_CLOSED_MESSAGE,
  GTO_REMARKS_MAX_LENGTH,
  GTO_TOTAL_ONLY_NOTE,
  isTotalOnly,
  submittedLine,
} from '../../../domain/gto';
import { gtoSubmissionMachine } from '../../../machines/gto/gtoSubmissionMachine';
import { useNoticeToasts } from '../../common/Notifications';
import { usePageActor } from '../../common/usePageActor';
import { MonthPicker } from '../../filters/MonthPicker';
import { PageTitle } from '../../filters/PageTitle';
import type { PageProps } from '../pageProps';
import './gto.css';

type SubmissionActor = ActorRefFrom<typeof gtoSubmissionMachine>;

/** Skeleton rows while a month loads. */
const SKELETON_ROWS = 7;

/**
 * GTO submission (§2, §7): the header's outlet (top bar) and month (here); each day of the month up to today with
 * its amount, the running total and the remarks; Submit for a month not submitted yet, Save correction for a
 * submitted one; who submitted it and when.
 */
export function GtoSubmissionPage({ title }: PageProps) {
  const actor = usePageActor(gtoSubmissionMachine);
  useNoticeToasts(actor);
  return (
    <section className="gto-page" data-testid="gto-submission-page">
      <header className="gto-header">
        <PageTitle title={title} />
        <div className="gto-header-filters">
          <MonthPicker />
        </div>
      </header>
      {actor ? <SubmissionBody actor={actor} /> : <SubmissionSkeleton />}
    </section>
  );
}

function SubmissionSkeleton() {
  return (
    <Card className="gto-card" data-testid="gto-submission-loading" aria-busy>
      <H2 className={`gto-month-title ${Classes.SKELETON}`}>Loading the month</H2>
      <HTMLTable compact className="gto-days">
        <tbody>
          {Array.from({ length: SKELETON_ROWS }, (_, index) => index + 1).map((place) => (
            <tr key={place}>
              <td>
                <span className={Classes.SKELETON}>Day</span>
              </td>
              <td>
                <span className={Classes.SKELETON}>Amount of the day</span>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </Card>
  );
}

function SubmissionBody({ actor }: { readonly actor: SubmissionActor }) {
  const idle = useSelector(actor, (state) => state.matches('idle'));
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const failed = useSelector(actor, (state) => state.matches('failure'));
  if (idle) {
    return (
      <Callout intent="primary" data-testid="gto-choose-outlet">
        {GTO_CHOOSE_OUTLET_MESSAGE}
      </Callout>
    );
  }
  if (loading) return <SubmissionSkeleton />;
  if (failed) {
    return (
      <div data-testid="gto-submission-failure">
        <NonIdealState
          icon="error"
          title="The GTO of this month could not be read"
          action={<Button icon="refresh" text="Retry" onClick={() => actor.send({ type: 'gto.retry' })} />}
        />
      </div>
    );
  }
  return <SubmissionForm actor={actor} />;
}

function SubmissionForm({ actor }: { readonly actor: SubmissionActor }) {
  const send = actor.send;
  const submission = useSelector(actor, (state) => state.context.submission);
  const days = useSelector(actor, (state) => state.context.days);
  const draft = useSelector(actor, (state) => state.context.draft);
  const saveError = useSelector(actor, (state) => state.context.saveError);
  const month = useSelector(actor, (state) => state.context.target?.month);
  const dirty = useSelector(actor, (state) => state.hasTag('dirty'));
  const saving = useSelector(actor, (state) => state.hasTag('saving'));
  // The machine decides what may be typed and saved.
  const canEdit = useSelector(actor, (state) => state.can({ type: 'gto.changeRemarks', value: '' }));
  const canSave = useSelector(actor, (state) => state.can({ type: 'gto.save' }));
  const canCancel = useSelector(actor, (state) => state.can({ type: 'gto.cancel' }));
  if (!submission || month === undefined) return null;

  const currency = currencyFormat(submission.currency);
  const check = checkDraft(draft, days);
  const totalOnly = isTotalOnly(check, submission);
  const who = submittedLine(submission);
  const problem = dirty && !saving ? check.problem : undefined;
  const saveLabel = submission.submitted ? 'Save correction' : 'Submit';

  return (
    <Card className="gto-card" data-testid="gto-submission-form" aria-busy={saving}>
      <div className="gto-month-row">
        <H2 className="gto-month-title">GTO of {formatMonth(month)}</H2>
        <span className="gto-status" data-testid="gto-submitted-line">
          {who ?? 'Not submitted yet.'}
        </span>
      </div>
      {submission.open ? null : (
        <Callout intent="warning" icon="lock" data-testid="gto-month-closed">
          {GTO_MONTH_CLOSED_MESSAGE}
        </Callout>
      )}
      {totalOnly ? (
        <Callout intent="primary" data-testid="gto-total-only">
          {GTO_TOTAL_ONLY_NOTE}
        </Callout>
      ) : null}
      <form
        className="gto-form"
        onSubmit={(event) => {
          event.preventDefault();
          send({ type: 'gto.save' });
        }}
      >
        <HTMLTable compact striped className="gto-days" data-testid="gto-days">
          <caption className="visually-hidden">Gross turnover of each day of {formatMonth(month)}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">GTO ({currency.code ?? currency.symbol})</th>
            </tr>
          </thead>
          <tbody>
            {days.map((date) => {
              const error = check.dayErrors[date];
              const errorId = `gto-day-error-${date}`;
              return (
                <tr key={date} data-testid={`gto-day-${date}`}>
                  <th scope="row" className="gto-day-name">
                    {dayLabel(date)}
                  </th>
                  <td>
                    <InputGroup
                      aria-label={`GTO of ${dayName(date)}`}
                      aria-invalid={error !== undefined}
                      aria-describedby={error ? errorId : undefined}
                      data-testid={`gto-amount-${date}`}
                      inputMode="decimal"
                      autoComplete="off"
                      leftElement={<span className="gto-currency">{currency.symbol}</span>}
                      intent={error ? 'danger' : 'none'}
                      value={draft.days[date] ?? ''}
                      disabled={!canEdit}
                      onValueChange={(value) => send({ type: 'gto.changeDay', date, value })}
                    />
                    {error ? (
                      <span id={errorId} className="gto-field-error">
                        {error}
                      </span>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td className="gto-total" data-testid="gto-total">
                {formatMoney(displayedTotal(check, submission), currency)}
              </td>
            </tr>
          </tfoot>
        </HTMLTable>
        <FormGroup
          label="Remarks"
          labelFor="gto-remarks"
          helperText={check.remarksError ?? `${draft.remarks.length} / ${GTO_REMARKS_MAX_LENGTH} characters`}
          intent={check.remarksError ? 'danger' : 'none'}
        >
          <TextArea
            id="gto-remarks"
            data-testid="gto-remarks"
            fill
            rows={3}
            value={draft.remarks}
            disabled={!canEdit}
            intent={check.remarksError ? 'danger' : 'none'}
            onChange={(event) => send({ type: 'gto.changeRemarks', value: event.currentTarget.value })}
          />
        </FormGroup>
        {problem ? (
          <p className="gto-problem" id="gto-problem" data-testid="gto-problem">
            {problem}
          </p>
        ) : null}
        {saveError ? (
          <Callout intent="danger" icon="error" data-testid="gto-save-error">
            {saveError}
          </Callout>
        ) : null}
        <div className="gto-actions">
          <span className="gto-running-total" data-testid="gto-running-total">
            Total: {formatMoney(displayedTotal(check, submission), currency)}
          </span>
          <Button
            type="submit"
            intent="primary"
            text={saveLabel}
            data-testid="gto-save"
            loading={saving}
            disabled={!canSave}
            aria-describedby={problem ? 'gto-problem' : undefined}
          />
          <Button
            text="Discard changes"
            data-testid="gto-cancel"
            disabled={!canCancel}
            onClick={() => send({ type: 'gto.cancel' })}
          />
          {dirty ? (
            <span className="gto-hint" data-testid="gto-header-held">
              {GTO_HEADER_HELD_MESSAGE}
            </span>
          ) : null}
        </div>
      </form>
    </Card>
  );
}
