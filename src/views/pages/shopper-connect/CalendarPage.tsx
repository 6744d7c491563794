import { Button, Callout, Card, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { CalendarEntry } from '../../../api/calendar';
import {
  CALENDAR_KIND_LABELS,
  CALENDAR_KINDS,
  calendarYears,
  countryName,
  MAX_ENTRY_NAME_LENGTH,
} from '../../../domain/calendar';
import { formatDay } from '../../../domain/format';
import { calendarMachine } from '../../../machines/calendarMachine';
import { ConfirmAlert } from '../../common/ConfirmAlert';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { FormDialog } from '../../common/DialogActions';
import { useNoticeToasts } from '../../common/Notifications';
import { usePageActor } from '../../common/usePageActor';
import { useToday } from '../../filters/filterHeaderContext';
import { PageHeader } from '../../filters/PageHeader';
import type { PageProps } from '../pageProps';
import './calendar.css';
import { DayRangeFields } from '../../common/DayRangeFields';

type CalendarActor = ActorRefFrom<typeof calendarMachine>;

/** The country and year of the calendar shown, and Add. */
function CalendarToolbar({ actor }: { readonly actor: CalendarActor | undefined }) {
  const countries = useSelector(actor, (state) => state?.context.countries ?? []);
  const country = useSelector(actor, (state) => state?.context.country);
  const year = useSelector(actor, (state) => state?.context.year);
  const canAdd = useSelector(actor, (state) => state?.can({ type: 'form.open' }) === true);
  const today = useToday();
  const years = calendarYears(today ?? `${year ?? 2026}-01-01`);
  return (
    <div className="calendar-toolbar">
      <FormGroup label="Country" labelFor="calendar-country">
        <HTMLSelect
          id="calendar-country"
          data-testid="calendar-country"
          value={country ?? ''}
          onChange={(event) => actor?.send({ type: 'calendar.country', country: event.currentTarget.value })}
        >
          {countries.map((code) => (
            <option key={code} value={code}>
              {countryName(code)}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label="Year" labelFor="calendar-year">
        <HTMLSelect
          id="calendar-year"
          data-testid="calendar-year"
          value={year ?? ''}
          onChange={(event) => actor?.send({ type: 'calendar.year', year: Number(event.currentTarget.value) })}
        >
          {years.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <Button
        className="calendar-toolbar-end"
        intent="primary"
        icon="add"
        data-testid="holiday-add"
        disabled={!canAdd}
        onClick={() => actor?.send({ type: 'form.open' })}
      >
        Add holiday
      </Button>
    </div>
  );
}

/** The entries of the country and year, each with Edit and Delete. */
function CalendarTable({ actor }: { readonly actor: CalendarActor | undefined }) {
  const entries = useSelector(actor, (state) => state?.context.entries);
  const failed = useSelector(actor, (state) => state?.matches({ list: 'failed' }) === true);
  const columns: readonly DataColumn<CalendarEntry, never>[] = [
    { key: 'name', header: 'Name', kind: 'text', render: (entry) => entry.name },
    { key: 'kind', header: 'Kind', kind: 'status', render: (entry) => CALENDAR_KIND_LABELS[entry.kind] },
    { key: 'start', header: 'First day', kind: 'date', render: (entry) => formatDay(entry.start_date) },
    { key: 'end', header: 'Last day', kind: 'date', render: (entry) => formatDay(entry.end_date) },
    { key: 'festival', header: 'Festival', kind: 'text', render: (entry) => entry.festival ?? '' },
    {
      key: 'actions',
      header: 'Actions',
      kind: 'actions',
      render: (entry) => (
        <>
          <Button
            variant="minimal"
            icon="edit"
            data-testid={`holiday-edit-${entry.id}`}
            aria-label={`Edit ${entry.name}`}
            onClick={() => actor?.send({ type: 'form.open', entry })}
          />
          <Button
            variant="minimal"
            intent="danger"
            icon="trash"
            data-testid={`holiday-delete-${entry.id}`}
            aria-label={`Delete ${entry.name}`}
            onClick={() => actor?.send({ type: 'delete.ask', entry })}
          />
        </>
      ),
    },
  ];
  return (
    <DataTable
      label="Holidays"
      columns={columns}
      rows={failed ? [] : entries}
      rowKey={(entry) => entry.id}
      testIdPrefix="holidays"
      skeleton={{ label: 'Loading holidays', testId: 'holidays-skeleton' }}
      {...(failed
        ? {
            failed: {
              message: 'Calendar error occurs. Please try again later.',
              onRetry: () => actor?.send({ type: 'list.retry' }),
            },
          }
        : entries && entries.length === 0
          ? { empty: { description: 'No holidays in this country and year.', testId: 'holidays-empty' } }
          : {})}
    />
  );
}

/** The dialog that adds or changes an entry of the page's country. */
function HolidayDialog({ actor }: { readonly actor: CalendarActor }) {
  const open = useSelector(actor, (state) => state.matches({ form: 'open' }));
  const draft = useSelector(actor, (state) => state.context.draft);
  const country = useSelector(actor, (state) => state.context.country);
  const formError = useSelector(actor, (state) => state.context.formError);
  const saving = useSelector(actor, (state) => state.hasTag('saving'));
  const canSubmit = useSelector(actor, (state) => state.can({ type: 'form.submit' }));
  const change = (field: 'name' | 'start' | 'end' | 'kind' | 'festival', value: string) =>
    actor.send({ type: 'form.change', field, value });
  const isNew = draft?.id === undefined;
  const where = country ? ` (${countryName(country)})` : '';
  return (
    <FormDialog
      isOpen={open}
      title={`${isNew ? 'Add holiday' : 'Edit holiday'}${where}`}
      formTestId="holiday-form"
      submitText={isNew ? 'Add' : 'Save'}
      submitTestId="holiday-submit"
      busy={saving}
      canSubmit={canSubmit}
      onCancel={() => actor.send({ type: 'form.cancel' })}
      onSubmit={() => actor.send({ type: 'form.submit' })}
    >
      {formError ? (
        <Callout intent="danger" data-testid="holiday-form-error">
          {formError}
        </Callout>
      ) : null}
      <FormGroup label="Name" labelFor="holiday-name">
        <InputGroup
          id="holiday-name"
          data-testid="holiday-name"
          value={draft?.name ?? ''}
          maxLength={MAX_ENTRY_NAME_LENGTH}
          onValueChange={(value) => change('name', value)}
          disabled={saving}
        />
      </FormGroup>
      <FormGroup label="Kind" labelFor="holiday-kind">
        <HTMLSelect
          id="holiday-kind"
          data-testid="holiday-kind"
          value={draft?.kind ?? 'public_holiday'}
          onChange={(event) => change('kind', event.currentTarget.value)}
          disabled={saving}
        >
          {CALENDAR_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {CALENDAR_KIND_LABELS[kind]}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <DayRangeFields
        prefix="holiday"
        start={draft?.start ?? ''}
        end={draft?.end ?? ''}
        onChange={change}
        disabled={saving}
      />
      <FormGroup
        label="Festival key"
        labelFor="holiday-festival"
        helperText="The same key every year (chinese_new_year); leave blank for none."
      >
        <InputGroup
          id="holiday-festival"
          data-testid="holiday-festival"
          value={draft?.festival ?? ''}
          maxLength={40}
          onValueChange={(value) => change('festival', value)}
          disabled={saving}
        />
      </FormGroup>
    </FormDialog>
  );
}

function HolidayDeleteAlert({ actor }: { readonly actor: CalendarActor }) {
  const confirming = useSelector(actor, (state) => state.matches({ remove: 'confirming' }));
  const working = useSelector(actor, (state) => state.hasTag('deleting'));
  const target = useSelector(actor, (state) => state.context.target);
  return (
    <ConfirmAlert
      confirming={confirming}
      working={working}
      intent="danger"
      icon="trash"
      confirmText="Delete"
      question={`Delete ${target?.name ?? 'this holiday'}?`}
      questionTestId="holiday-delete-question"
      onConfirm={() => actor.send({ type: 'delete.confirm' })}
      onCancel={() => actor.send({ type: 'delete.cancel' })}
    />
  );
}

/**
 * Shopper Connect, Calendar: the client's public holidays, festivals and school holidays of a country of its malls
 * in a year, which the malls' time charts draw and the festival-aligned comparisons read; each added, changed and
 * removed in a dialog.
 */
export function CalendarPage({ title, header }: PageProps) {
  const actor = usePageActor(calendarMachine);
  useNoticeToasts(actor);
  return (
    <section className="calendar-page" data-testid="calendar-page">
      <PageHeader title={title} header={header} />
      <Card className="calendar-card">
        <CalendarToolbar actor={actor} />
        <CalendarTable actor={actor} />
      </Card>
      {actor ? <HolidayDialog actor={actor} /> : null}
      {actor ? <HolidayDeleteAlert actor={actor} /> : null}
    </section>
  );
}
