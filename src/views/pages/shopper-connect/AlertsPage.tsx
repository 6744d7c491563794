import { Button, Card, InputGroup, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { AlertFiring, AlertRule } from '../../../api/alertRules';
import {
  type AlertRuleSortColumn,
  conditionText,
  formatMetricValue,
  METRIC_LABELS,
  periodText,
  scheduleText,
  visibleAlertRules,
} from '../../../domain/alertRules';
import { formatDateTime, formatNumber } from '../../../domain/format';
import { alertsMachine } from '../../../machines/alertsMachine';
import { AuthContext } from '../../../machines/authContext';
import { ConfirmAlert } from '../../common/ConfirmAlert';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { useNoticeToasts } from '../../common/Notifications';
import { usePageActor } from '../../common/usePageActor';
import { PageHeader } from '../../filters/PageHeader';
import type { PageProps } from '../pageProps';
import { AlertRuleEditor, type AlertsActor } from './AlertRuleEditor';
import './alerts.css';

function ruleColumns(actor: AlertsActor): readonly DataColumn<AlertRule, AlertRuleSortColumn>[] {
  return [
    { key: 'name', header: 'Name', kind: 'text', sort: 'name', render: (rule) => rule.name },
    { key: 'metric', header: 'Metric', kind: 'text', sort: 'metric', render: (rule) => METRIC_LABELS[rule.metric] },
    {
      key: 'condition',
      header: 'Condition',
      kind: 'text',
      render: (rule) => conditionText(rule, rule.currency),
    },
    { key: 'schedule', header: 'Schedule', kind: 'text', sort: 'schedule', render: (rule) => scheduleText(rule) },
    {
      key: 'state',
      header: 'State',
      kind: 'status',
      render: (rule) => (
        <Tag minimal intent={rule.active ? 'success' : 'none'}>
          {rule.active ? 'Active' : 'Paused'}
        </Tag>
      ),
    },
    {
      key: 'firings',
      header: 'Firings',
      kind: 'count',
      sort: 'firing_count',
      render: (rule) => formatNumber(rule.firing_count),
    },
    {
      key: 'last',
      header: 'Last fired',
      kind: 'datetime',
      sort: 'last_fired_at',
      render: (rule) => (rule.last_fired_at === null ? '-' : formatDateTime(rule.last_fired_at, rule.time_zone)),
    },
    {
      key: 'actions',
      header: 'Actions',
      kind: 'actions',
      render: (rule) => (
        <span className="alerts-actions">
          <Button
            small
            minimal
            text="History"
            onClick={() => actor.send({ type: 'history.open', ruleId: rule.id })}
            data-testid="alert-history"
          />
          <Button
            small
            minimal
            text="Edit"
            onClick={() => actor.send({ type: 'editor.edit', ruleId: rule.id })}
            data-testid="alert-edit"
          />
          <Button
            small
            minimal
            intent="danger"
            text="Delete"
            onClick={() => actor.send({ type: 'rule.delete', ruleId: rule.id })}
            data-testid="alert-delete"
          />
        </span>
      ),
    },
  ];
}

function firingColumns(
  actor: AlertsActor,
  rule: AlertRule,
  busyId: number | undefined,
): readonly DataColumn<AlertFiring, never>[] {
  return [
    { key: 'period', header: 'Period', kind: 'text', render: (firing) => periodText(firing.period_key) },
    {
      key: 'value',
      header: 'Value',
      kind: 'money',
      render: (firing) => formatMetricValue(rule.metric, firing.value, firing.currency),
    },
    {
      key: 'compared',
      header: 'Compared with',
      kind: 'money',
      render: (firing) => formatMetricValue(rule.metric, firing.compared_value, firing.currency),
    },
    {
      key: 'fired',
      header: 'Fired',
      kind: 'datetime',
      render: (firing) => formatDateTime(firing.fired_at, rule.time_zone),
    },
    {
      key: 'acknowledged',
      header: 'Acknowledged',
      kind: 'text',
      render: (firing) =>
        firing.acknowledged_at === null ? (
          <Button
            small
            text="Acknowledge"
            loading={busyId === firing.id}
            disabled={busyId !== undefined}
            onClick={() => actor.send({ type: 'firing.acknowledge', id: firing.id })}
            data-testid="alert-acknowledge"
          />
        ) : (
          `${firing.acknowledged_by ?? '-'}, ${formatDateTime(firing.acknowledged_at, rule.time_zone)}`
        ),
      text: (firing) => firing.acknowledged_by ?? '',
    },
  ];
}

/**
 * Alerts (issue 34): the client's alert rules in the shared table (sortable, searchable), the editor that adds or
 * changes one, and a rule's history with Acknowledge. Times are in the rule's malls' zone.
 */
export function AlertsPage({ title, header }: PageProps) {
  const actor = usePageActor(alertsMachine);
  useNoticeToasts(actor);
  const userId = AuthContext.useSelector((state) => state.context.user?.id);
  const status = useSelector(actor, (state) => {
    if (!state || state.matches({ rules: 'loading' })) return 'loading';
    if (state.matches({ rules: 'failure' })) return 'failed';
    return state.matches({ rules: 'idle' }) ? 'idle' : 'loaded';
  });
  const answer = useSelector(actor, (state) => state?.context.answer);
  const search = useSelector(actor, (state) => state?.context.search ?? '');
  const sort = useSelector(actor, (state) => state?.context.sort);
  const target = useSelector(actor, (state) => state?.context.target);
  const historyRuleId = useSelector(actor, (state) => state?.context.historyRuleId);
  const firings = useSelector(actor, (state) => state?.context.firings);
  const historyFailed = useSelector(actor, (state) => state?.matches({ history: 'failure' }) ?? false);
  const acknowledgingId = useSelector(actor, (state) => state?.context.acknowledgingId);
  const removing = useSelector(actor, (state) => state?.context.removing);
  const confirming = useSelector(actor, (state) => state?.matches({ remove: 'confirming' }) ?? false);
  const working = useSelector(actor, (state) => state?.matches({ remove: 'working' }) ?? false);
  const rows = useMemo(
    () => (answer && sort ? visibleAlertRules(answer.rules, search, sort) : undefined),
    [answer, search, sort],
  );
  const historyRule = answer?.rules.find((rule) => rule.id === historyRuleId);
  if (!actor) return null;

  return (
    <section className="alerts-page" data-testid="alerts-page">
      <PageHeader title={title} header={header} />
      <Card>
        <div className="alerts-toolbar">
          <InputGroup
            leftIcon="search"
            placeholder="Search rules"
            aria-label="Search rules"
            value={search}
            onValueChange={(text) => actor.send({ type: 'rules.search', text })}
            data-testid="alerts-search"
          />
          <Button
            icon="add"
            text="New rule"
            disabled={status !== 'loaded' || !target}
            onClick={() => target && actor.send({ type: 'editor.new', prefill: { mallIds: target.mallIds }, userId })}
            data-testid="alerts-new"
          />
        </div>
        {status === 'idle' ? null : (
          <DataTable
            label="Alert rules"
            columns={ruleColumns(actor)}
            rows={status === 'loading' ? undefined : (rows ?? [])}
            rowKey={(rule) => rule.id}
            rowAttributes={(rule) => ({ 'data-testid': 'alert-rule-row', 'data-rule-id': rule.id })}
            sortColumn={sort?.column}
            order={sort?.order}
            onSort={(column) => actor.send({ type: 'rules.sort', column })}
            testIdPrefix="alerts"
            skeleton={{ label: 'Loading alert rule', testId: 'alerts-skeleton-row' }}
            empty={{
              testId: 'alerts-empty',
              title: 'No alert rule yet',
              description: 'Add one with New rule, or with Alert me when… on Mall Home.',
            }}
            {...(status === 'failed'
              ? {
                  failed: {
                    message: 'The alert rules could not be read.',
                    onRetry: () => actor.send({ type: 'rules.retry' }),
                    retryTestId: 'alerts-retry',
                  },
                }
              : {})}
          />
        )}
      </Card>
      {historyRule ? (
        <Card data-testid="alert-history-panel">
          <div className="alerts-toolbar">
            <strong>History of {historyRule.name}</strong>
            <Button
              minimal
              icon="cross"
              aria-label="Close history"
              onClick={() => actor.send({ type: 'history.close' })}
            />
          </div>
          <DataTable
            label={`History of ${historyRule.name}`}
            columns={firingColumns(actor, historyRule, acknowledgingId)}
            rows={historyFailed ? [] : firings}
            rowKey={(firing) => firing.id}
            rowAttributes={() => ({ 'data-testid': 'alert-firing-row' })}
            testIdPrefix="alert-firings"
            skeleton={{ label: 'Loading firing', testId: 'alert-firings-skeleton-row' }}
            empty={{ testId: 'alert-firings-empty' }}
            {...(historyFailed
              ? {
                  failed: {
                    message: 'The history could not be read.',
                    onRetry: () => actor.send({ type: 'history.retry' }),
                    retryTestId: 'alert-firings-retry',
                  },
                }
              : {})}
          />
        </Card>
      ) : null}
      <AlertRuleEditor actor={actor} />
      <ConfirmAlert
        confirming={confirming}
        working={working}
        intent="danger"
        icon="trash"
        confirmText="Delete"
        question={`Delete ${removing?.name ?? ''} and its history?`}
        questionTestId="alert-delete-question"
        onConfirm={() => actor.send({ type: 'rule.confirmDelete' })}
        onCancel={() => actor.send({ type: 'rule.cancelDelete' })}
      />
    </section>
  );
}
