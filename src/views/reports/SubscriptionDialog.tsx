import { Button, Callout, Checkbox, Classes, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import {
  formatsOfPage,
  hourText,
  LAST_MONTH_DAY,
  type SubscriptionFormat,
  type SubscriptionFrequency,
  subscriptionDraftProblems,
  WEEKDAY_NAMES,
} from '../../domain/reportSubscriptions';
import {
  SUBSCRIPTION_OPTIONS_ERROR,
  type subscriptionEditorMachine,
} from '../../machines/reportSubscriptionEditorMachine';
import { FormDialog } from '../common/DialogActions';
import './subscriptions.css';

export type SubscriptionEditorActor = ActorRefFrom<typeof subscriptionEditorMachine>;

const FREQUENCIES: readonly { value: SubscriptionFrequency; label: string }[] = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
];
const HOURS = Array.from({ length: 24 }, (_, hour) => ({ value: hour, label: hourText(hour) }));
const WEEKDAYS = WEEKDAY_NAMES.map((name, index) => ({ value: index + 1, label: name }));
const MONTH_DAYS = Array.from({ length: LAST_MONTH_DAY }, (_, index) => ({
  value: index + 1,
  label: String(index + 1),
}));
const FORMAT_LABELS: Record<SubscriptionFormat, string> = { pdf: 'PDF of the page', workbook: 'Excel workbook' };

/**
 * The subscribe dialog, drawn from the editor machine (machines/reportSubscriptionEditorMachine): name, schedule at
 * an hour of the mall's zone, the formats the page has and the recipients. Without a browser on the server it says
 * so and offers no save.
 */
export function SubscriptionDialog({ actor }: { actor: SubscriptionEditorActor }) {
  const state = useSelector(actor, (snapshot) => snapshot);
  const { target, draft, recipients, rendering, error, editingId } = state.context;
  const open = !state.matches('closed');
  const busy = state.matches('saving');
  const send = actor.send;
  const change = (next: Parameters<typeof send>[0] & { type: 'subscribe.change' }) => send(next);
  const problems = target && draft ? subscriptionDraftProblems(draft, target.pagePath) : {};
  const offline = rendering !== undefined && !rendering.available;
  const toggleFormat = (format: SubscriptionFormat, on: boolean) => {
    if (!draft) return;
    const formats = on ? [...draft.formats, format] : draft.formats.filter((chosen) => chosen !== format);
    change({ type: 'subscribe.change', change: { formats } });
  };
  const toggleRecipient = (id: number, on: boolean) => {
    if (!draft) return;
    const recipientIds = on ? [...draft.recipientIds, id] : draft.recipientIds.filter((chosen) => chosen !== id);
    change({ type: 'subscribe.change', change: { recipientIds } });
  };
  return (
    <FormDialog
      isOpen={open}
      title={editingId === undefined ? `Subscribe to ${target?.pageTitle ?? 'this report'}` : 'Change subscription'}
      className="subscription-dialog"
      formTestId="subscription-form"
      submitText="Save"
      submitTestId="subscription-save"
      busy={busy}
      canSubmit={state.can({ type: 'subscribe.save' })}
      onCancel={() => send({ type: 'subscribe.cancel' })}
      onSubmit={() => send({ type: 'subscribe.save' })}
    >
      {offline ? (
        <Callout intent="warning" icon="disable" data-testid="subscription-unavailable" title="Not available">
          {rendering.message}
        </Callout>
      ) : null}
      {state.matches('loading') ? (
        <div data-testid="subscription-loading" aria-busy="true">
          <p className={Classes.SKELETON}>Loading the recipients</p>
          <p className={Classes.SKELETON}>Loading the schedule</p>
        </div>
      ) : null}
      {state.matches('failed') ? (
        <Callout intent="danger" data-testid="subscription-options-failed">
          <p>{SUBSCRIPTION_OPTIONS_ERROR}</p>
          <Button
            icon="refresh"
            text="Retry"
            data-testid="subscription-retry"
            onClick={() => send({ type: 'subscribe.retry' })}
          />
        </Callout>
      ) : null}
      {draft && target && (state.matches('editing') || state.matches('saving')) ? (
        <fieldset className="subscription-fields" disabled={busy || offline}>
          <p className="subscription-page" data-testid="subscription-page">
            {target.pageTitle}: the page as shown with its filters, the date range moved to end the day before each
            send.
          </p>
          <FormGroup
            label="Name"
            labelFor="subscription-name"
            intent={problems.name ? 'danger' : 'none'}
            helperText={problems.name}
          >
            <InputGroup
              id="subscription-name"
              data-testid="subscription-name"
              value={draft.name}
              maxLength={200}
              onValueChange={(name) => change({ type: 'subscribe.change', change: { name } })}
            />
          </FormGroup>
          <div className="subscription-schedule">
            <FormGroup label="Schedule" labelFor="subscription-frequency">
              <HTMLSelect
                id="subscription-frequency"
                data-testid="subscription-frequency"
                value={draft.frequency}
                options={FREQUENCIES}
                onChange={(event) =>
                  change({
                    type: 'subscribe.change',
                    change: { frequency: event.currentTarget.value as SubscriptionFrequency },
                  })
                }
              />
            </FormGroup>
            {draft.frequency === 'weekly' ? (
              <FormGroup label="On" labelFor="subscription-weekday">
                <HTMLSelect
                  id="subscription-weekday"
                  data-testid="subscription-weekday"
                  value={draft.weekday}
                  options={WEEKDAYS}
                  onChange={(event) =>
                    change({ type: 'subscribe.change', change: { weekday: Number(event.currentTarget.value) } })
                  }
                />
              </FormGroup>
            ) : null}
            {draft.frequency === 'monthly' ? (
              <FormGroup label="Day of the month" labelFor="subscription-month-day">
                <HTMLSelect
                  id="subscription-month-day"
                  data-testid="subscription-month-day"
                  value={draft.monthDay}
                  options={MONTH_DAYS}
                  onChange={(event) =>
                    change({ type: 'subscribe.change', change: { monthDay: Number(event.currentTarget.value) } })
                  }
                />
              </FormGroup>
            ) : null}
            <FormGroup label="At (the mall's time)" labelFor="subscription-hour">
              <HTMLSelect
                id="subscription-hour"
                data-testid="subscription-hour"
                value={draft.hour}
                options={HOURS}
                onChange={(event) =>
                  change({ type: 'subscribe.change', change: { hour: Number(event.currentTarget.value) } })
                }
              />
            </FormGroup>
          </div>
          <FormGroup label="Formats" intent={problems.formats ? 'danger' : 'none'} helperText={problems.formats}>
            {formatsOfPage(target.pagePath).map((format) => (
              <Checkbox
                key={format}
                data-testid={`subscription-format-${format}`}
                label={FORMAT_LABELS[format]}
                checked={draft.formats.includes(format)}
                onChange={(event) => toggleFormat(format, event.currentTarget.checked)}
              />
            ))}
          </FormGroup>
          <FormGroup
            label="Recipients"
            intent={problems.recipients ? 'danger' : 'none'}
            helperText={problems.recipients}
          >
            <div className="subscription-recipients" data-testid="subscription-recipients">
              {recipients.map((recipient) => (
                <Checkbox
                  key={recipient.id}
                  data-testid="subscription-recipient"
                  data-email={recipient.email}
                  label={recipient.email}
                  checked={draft.recipientIds.includes(recipient.id)}
                  onChange={(event) => toggleRecipient(recipient.id, event.currentTarget.checked)}
                />
              ))}
            </div>
          </FormGroup>
          {error ? (
            <Callout intent="danger" data-testid="subscription-error">
              {error}
            </Callout>
          ) : null}
        </fieldset>
      ) : null}
    </FormDialog>
  );
}
