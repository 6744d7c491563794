import { Button, Checkbox, FormGroup, HTMLSelect, InputGroup, NumericInput, Spinner, Switch } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { AlertRecipient } from '../../../api/alertRules';
import {
  ALERT_CONDITION_KINDS,
  ALERT_METRICS,
  ALERT_NAME_MAX,
  ALERT_SCHEDULE_KINDS,
  ALERT_WEEKS_MAX,
  type AlertConditionKind,
  type AlertMetric,
  type AlertRuleDraft,
  type AlertScheduleKind,
  CONDITION_LABELS,
  categoryChoices,
  isChangeCondition,
  METRIC_LABELS,
  SCHEDULE_LABELS,
} from '../../../domain/alertRules';
import { toggleId } from '../../../domain/filterOptions';
import { formatNumber } from '../../../domain/format';
import type { alertsMachine } from '../../../machines/alertsMachine';
import { FormDialog } from '../../common/DialogActions';

/** The Alerts page's actor, or Mall Home's dialog (the same machine). */
export type AlertsActor = ActorRefFrom<typeof alertsMachine>;

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  list.some((item) => item === value);

/** The fields the server may name in a refusal, as the editor shows them. */
const FIELDS: readonly (keyof AlertRuleDraft)[] = [
  'name',
  'mall_ids',
  'condition_kind',
  'condition_value',
  'weeks',
  'schedule_kind',
  'schedule_time',
  'recipient_ids',
];

/** The outlet select's value: all, one outlet, or several (a rule made elsewhere). */
const outletValue = (outletIds: readonly number[]) =>
  outletIds.length === 0 ? 'all' : outletIds.length === 1 ? String(outletIds[0]) : 'some';

/**
 * The editor of an alert rule (the Alerts page's, and Mall Home's 'Alert me when…' dialog): its scope (the malls,
 * a category, an outlet of the header's), metric, condition, schedule and recipients (the client's users the rules
 * answer gives), the rule it breaks shown at its field.
 */
export function AlertRuleEditor({ actor }: { actor: AlertsActor }) {
  const recipients = useSelector(actor, (state): readonly AlertRecipient[] => state.context.answer?.recipients ?? []);
  const categories = useSelector(actor, (state) => state.context.answer?.categories ?? []);
  const recipientsLoading = useSelector(actor, (state) => state.matches({ rules: 'loading' }));
  const recipientsFailed = useSelector(actor, (state) => state.matches({ rules: 'failure' }));
  const choices = useSelector(actor, (state) => state.context.choices);
  const draft = useSelector(actor, (state) => state.context.draft);
  const problem = useSelector(actor, (state) => state.context.problem);
  const saveError = useSelector(actor, (state) => state.context.saveError);
  const editing = useSelector(actor, (state) => state.context.editingId !== undefined);
  const saving = useSelector(actor, (state) => state.matches({ editor: 'saving' }));
  const open = useSelector(actor, (state) => !state.matches({ editor: 'closed' }));
  const change = (patch: Partial<AlertRuleDraft>) => actor.send({ type: 'editor.change', patch });
  // The server's refusal names its field first ('mall_ids: …'): shown at that field, else below the form.
  const refusedField = FIELDS.find((field) => saveError?.startsWith(`${field}: `));
  const at = (field: string) => {
    if (problem?.field === field) return problem.message;
    return refusedField === field ? saveError?.slice(field.length + 2) : undefined;
  };
  /** The outlets of the draft's malls (an outlet of no mall is offered with every mall). */
  const outletsOf = () =>
    choices.outlets.filter((outlet) => outlet.mall_id == null || (draft?.mall_ids.includes(outlet.mall_id) ?? false));
  /** The outlets kept when the malls change: those of the malls still chosen. */
  const outletsWithin = (outletIds: readonly number[], mallIds: readonly number[]) =>
    outletIds.filter((id) => {
      const outlet = choices.outlets.find((candidate) => candidate.id === id);
      return outlet === undefined || outlet.mall_id == null || mallIds.includes(outlet.mall_id);
    });
  return (
    <FormDialog
      isOpen={open && draft !== undefined}
      title={editing ? 'Edit alert rule' : 'Alert me when…'}
      formTestId="alert-editor"
      submitText="Save"
      submitTestId="alert-save"
      busy={saving}
      canSubmit={draft !== undefined && problem === undefined}
      onCancel={() => actor.send({ type: 'editor.cancel' })}
      onSubmit={() => actor.send({ type: 'editor.save' })}
    >
      {draft ? (
        <>
          <FormGroup label="Name" labelFor="alert-name" helperText={at('name')} intent={at('name') ? 'danger' : 'none'}>
            <InputGroup
              id="alert-name"
              value={draft.name}
              maxLength={ALERT_NAME_MAX}
              onValueChange={(name) => change({ name })}
              data-testid="alert-name"
            />
          </FormGroup>
          <FormGroup
            label="Malls"
            helperText={at('mall_ids')}
            intent={at('mall_ids') ? 'danger' : 'none'}
            className="alert-editor-choices"
          >
            {choices.malls.map((mall) => (
              <Checkbox
                key={mall.id}
                label={mall.name}
                checked={draft.mall_ids.includes(mall.id)}
                onChange={() => {
                  const mallIds = toggleId(draft.mall_ids, mall.id);
                  change({ mall_ids: mallIds, outlet_ids: outletsWithin(draft.outlet_ids, mallIds) });
                }}
                data-testid="alert-mall"
              />
            ))}
          </FormGroup>
          <FormGroup label="Category" labelFor="alert-category">
            <HTMLSelect
              id="alert-category"
              fill
              value={draft.category ?? ''}
              options={[
                { value: '', label: 'All categories' },
                ...categoryChoices(categories, draft.mall_ids, draft.category).map((name) => ({
                  value: name,
                  label: name,
                })),
              ]}
              onChange={(event) => {
                const value = event.currentTarget.value;
                change({ category: value === '' ? null : value });
              }}
              data-testid="alert-category"
            />
          </FormGroup>
          <FormGroup label="Outlet" labelFor="alert-outlet">
            <HTMLSelect
              id="alert-outlet"
              fill
              value={outletValue(draft.outlet_ids)}
              options={[
                { value: 'all', label: 'All outlets' },
                ...(draft.outlet_ids.length > 1
                  ? [{ value: 'some', label: `${formatNumber(draft.outlet_ids.length)} outlets` }]
                  : []),
                ...outletsOf().map((outlet) => ({ value: String(outlet.id), label: outlet.name })),
              ]}
              onChange={(event) => {
                const value = event.currentTarget.value;
                if (value === 'all') change({ outlet_ids: [] });
                else if (value !== 'some') change({ outlet_ids: [Number(value)] });
              }}
              data-testid="alert-outlet"
            />
          </FormGroup>
          <FormGroup label="Metric" labelFor="alert-metric">
            <HTMLSelect
              id="alert-metric"
              value={draft.metric}
              options={ALERT_METRICS.map((metric) => ({ value: metric, label: METRIC_LABELS[metric] }))}
              onChange={(event) => {
                const value = event.currentTarget.value;
                if (isOneOf<AlertMetric>(ALERT_METRICS, value)) change({ metric: value });
              }}
              data-testid="alert-metric"
            />
          </FormGroup>
          <FormGroup
            label="Condition"
            labelFor="alert-condition"
            helperText={at('condition_kind')}
            intent={at('condition_kind') ? 'danger' : 'none'}
          >
            <HTMLSelect
              id="alert-condition"
              value={draft.condition_kind}
              options={ALERT_CONDITION_KINDS.map((kind) => ({ value: kind, label: CONDITION_LABELS[kind] }))}
              onChange={(event) => {
                const value = event.currentTarget.value;
                if (isOneOf<AlertConditionKind>(ALERT_CONDITION_KINDS, value)) change({ condition_kind: value });
              }}
              data-testid="alert-condition"
            />
          </FormGroup>
          <FormGroup
            label={isChangeCondition(draft.condition_kind) ? 'Change of more than (%)' : 'Value'}
            labelFor="alert-value"
            helperText={at('condition_value')}
            intent={at('condition_value') ? 'danger' : 'none'}
          >
            <NumericInput
              id="alert-value"
              value={draft.condition_value}
              min={0}
              onValueChange={(value) => change({ condition_value: value })}
              data-testid="alert-value"
            />
          </FormGroup>
          {draft.condition_kind === 'change_vs_weekdays' ? (
            <FormGroup
              label="Weeks"
              labelFor="alert-weeks"
              helperText={at('weeks')}
              intent={at('weeks') ? 'danger' : 'none'}
            >
              <NumericInput
                id="alert-weeks"
                value={draft.weeks}
                min={1}
                max={ALERT_WEEKS_MAX}
                onValueChange={(weeks) => change({ weeks })}
                data-testid="alert-weeks"
              />
            </FormGroup>
          ) : null}
          <FormGroup
            label="Schedule"
            labelFor="alert-schedule"
            helperText={at('schedule_kind') ?? at('schedule_time')}
            intent={at('schedule_kind') || at('schedule_time') ? 'danger' : 'none'}
          >
            <HTMLSelect
              id="alert-schedule"
              value={draft.schedule_kind}
              options={ALERT_SCHEDULE_KINDS.map((kind) => ({ value: kind, label: SCHEDULE_LABELS[kind] }))}
              onChange={(event) => {
                const value = event.currentTarget.value;
                if (isOneOf<AlertScheduleKind>(ALERT_SCHEDULE_KINDS, value)) change({ schedule_kind: value });
              }}
              data-testid="alert-schedule"
            />
            {draft.schedule_kind === 'hourly' ? null : (
              <InputGroup
                aria-label="Time"
                value={draft.schedule_time}
                maxLength={5}
                onValueChange={(schedule_time) => change({ schedule_time })}
                data-testid="alert-time"
              />
            )}
          </FormGroup>
          <FormGroup
            label="Recipients"
            helperText={at('recipient_ids')}
            intent={at('recipient_ids') ? 'danger' : 'none'}
          >
            {recipientsLoading ? <Spinner size={16} aria-label="Loading recipients" /> : null}
            {recipientsFailed ? (
              <Button
                small
                icon="refresh"
                text="Retry"
                onClick={() => actor.send({ type: 'rules.retry' })}
                data-testid="alert-recipients-retry"
              />
            ) : null}
            {recipients.map((recipient) => (
              <Switch
                key={recipient.id}
                label={recipient.name ?? recipient.email}
                checked={draft.recipient_ids.includes(recipient.id)}
                onChange={() =>
                  change({
                    recipient_ids: draft.recipient_ids.includes(recipient.id)
                      ? draft.recipient_ids.filter((id) => id !== recipient.id)
                      : [...draft.recipient_ids, recipient.id],
                  })
                }
                data-testid="alert-recipient"
              />
            ))}
          </FormGroup>
          <Switch
            label="Active"
            checked={draft.active}
            onChange={() => change({ active: !draft.active })}
            data-testid="alert-active"
          />
          {saveError && refusedField === undefined ? (
            <p className="bp6-text-muted" role="alert" data-testid="alert-save-error">
              {saveError}
            </p>
          ) : null}
        </>
      ) : null}
    </FormDialog>
  );
}
