import { Button, Callout, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { MallEvent } from '../../../api/calendar';
import { MALL_EVENT_KIND_LABELS, MALL_EVENT_KINDS, MAX_ENTRY_NAME_LENGTH } from '../../../domain/calendar';
import { formatDay } from '../../../domain/format';
import type { mallEventsMachine } from '../../../machines/mallEventsMachine';
import { ConfirmAlert } from '../../common/ConfirmAlert';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { DayRangeFields } from '../../common/DayRangeFields';
import { FormDialog } from '../../common/DialogActions';

/** The parts of the malls' events shared by the Events page and Mall Home's 'Add event'. */

export type MallEventsActor = ActorRefFrom<typeof mallEventsMachine>;

/** The dialog that adds or changes an event: the mall, title, kind and days; the failure said in it. */
export function MallEventDialog({ actor }: { readonly actor: MallEventsActor }) {
  const open = useSelector(actor, (state) => state.matches({ form: 'open' }));
  const draft = useSelector(actor, (state) => state.context.draft);
  const malls = useSelector(actor, (state) => state.context.malls);
  const formError = useSelector(actor, (state) => state.context.formError);
  const saving = useSelector(actor, (state) => state.hasTag('saving'));
  const canSubmit = useSelector(actor, (state) => state.can({ type: 'form.submit' }));
  const change = (field: 'title' | 'start' | 'end' | 'kind' | 'mallId', value: string) =>
    actor.send({ type: 'form.change', field, value });
  const isNew = draft?.id === undefined;
  return (
    <FormDialog
      isOpen={open}
      title={isNew ? 'Add event' : 'Edit event'}
      formTestId="event-form"
      submitText={isNew ? 'Add' : 'Save'}
      submitTestId="event-submit"
      busy={saving}
      canSubmit={canSubmit}
      onCancel={() => actor.send({ type: 'form.cancel' })}
      onSubmit={() => actor.send({ type: 'form.submit' })}
    >
      {formError ? (
        <Callout intent="danger" data-testid="event-form-error">
          {formError}
        </Callout>
      ) : null}
      <FormGroup label="Mall" labelFor="event-mall">
        <HTMLSelect
          id="event-mall"
          data-testid="event-mall"
          value={draft?.mallId ?? ''}
          onChange={(event) => change('mallId', event.currentTarget.value)}
          disabled={saving}
        >
          {malls.map((mall) => (
            <option key={mall.id} value={mall.id}>
              {mall.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label="Title" labelFor="event-title">
        <InputGroup
          id="event-title"
          data-testid="event-title"
          value={draft?.title ?? ''}
          maxLength={MAX_ENTRY_NAME_LENGTH}
          onValueChange={(value) => change('title', value)}
          disabled={saving}
        />
      </FormGroup>
      <FormGroup label="Kind" labelFor="event-kind">
        <HTMLSelect
          id="event-kind"
          data-testid="event-kind"
          value={draft?.kind ?? 'event'}
          onChange={(event) => change('kind', event.currentTarget.value)}
          disabled={saving}
        >
          {MALL_EVENT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {MALL_EVENT_KIND_LABELS[kind]}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <DayRangeFields
        prefix="event"
        start={draft?.start ?? ''}
        end={draft?.end ?? ''}
        onChange={change}
        disabled={saving}
      />
    </FormDialog>
  );
}

/** The question before an event is removed. */
export function MallEventDeleteAlert({ actor }: { readonly actor: MallEventsActor }) {
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
      question={`Delete ${target?.title ?? 'this event'}?`}
      questionTestId="event-delete-question"
      onConfirm={() => actor.send({ type: 'delete.confirm' })}
      onCancel={() => actor.send({ type: 'delete.cancel' })}
    />
  );
}

/** The events of the header's malls, each with Edit and Delete. */
export function MallEventsTable({ actor }: { readonly actor: MallEventsActor }) {
  const events = useSelector(actor, (state) => state.context.events);
  const failed = useSelector(actor, (state) => state.matches({ list: 'failed' }));
  const malls = useSelector(actor, (state) => state.context.malls);
  const mallName = (id: number) => malls.find((mall) => mall.id === id)?.name ?? String(id);
  const columns: readonly DataColumn<MallEvent, never>[] = [
    { key: 'title', header: 'Title', kind: 'text', render: (event) => event.title },
    { key: 'mall', header: 'Mall', kind: 'text', render: (event) => mallName(event.mall_id) },
    { key: 'kind', header: 'Kind', kind: 'status', render: (event) => MALL_EVENT_KIND_LABELS[event.kind] },
    { key: 'start', header: 'First day', kind: 'date', render: (event) => formatDay(event.start_date) },
    { key: 'end', header: 'Last day', kind: 'date', render: (event) => formatDay(event.end_date) },
    { key: 'created_by', header: 'Added by', kind: 'text', render: (event) => event.created_by },
    {
      key: 'actions',
      header: 'Actions',
      kind: 'actions',
      render: (event) => (
        <>
          <Button
            variant="minimal"
            icon="edit"
            data-testid={`event-edit-${event.id}`}
            aria-label={`Edit ${event.title}`}
            onClick={() => actor.send({ type: 'form.open', event })}
          />
          <Button
            variant="minimal"
            intent="danger"
            icon="trash"
            data-testid={`event-delete-${event.id}`}
            aria-label={`Delete ${event.title}`}
            onClick={() => actor.send({ type: 'delete.ask', event })}
          />
        </>
      ),
    },
  ];
  return (
    <DataTable
      label="Events"
      columns={columns}
      rows={failed ? [] : events}
      rowKey={(event) => event.id}
      testIdPrefix="events"
      skeleton={{ label: 'Loading events', testId: 'events-skeleton' }}
      {...(failed
        ? {
            failed: {
              message: 'Events error occurs. Please try again later.',
              onRetry: () => actor.send({ type: 'list.retry' }),
            },
          }
        : events && events.length === 0
          ? { empty: { description: 'No events in the selected malls and days.', testId: 'events-empty' } }
          : {})}
    />
  );
}
