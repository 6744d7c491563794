import { Button, Callout, Card, Tag } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { ReportSubscription } from '../../../api/reportSubscriptions';
import { formatDateTime } from '../../../domain/format';
import { formatsText, scheduleText } from '../../../domain/reportSubscriptions';
import { subscriptionEditorMachine } from '../../../machines/reportSubscriptionEditorMachine';
import { reportSubscriptionsMachine } from '../../../machines/reportSubscriptionsMachine';
import { ConfirmAlert } from '../../common/ConfirmAlert';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { useNoticeToasts } from '../../common/Notifications';
import { usePageActor } from '../../common/usePageActor';
import { PageHeader } from '../../filters/PageHeader';
import { SubscriptionDialog, type SubscriptionEditorActor } from '../../reports/SubscriptionDialog';
import type { PageProps } from '../pageProps';
import '../../reports/subscriptions.css';

type PageActor = NonNullable<ReturnType<typeof usePageActor<typeof reportSubscriptionsMachine>>>;

/** The last delivery: 'Sent' or 'Failed' with its reason and when, or 'Not sent yet'. */
function LastDelivery({ subscription }: { subscription: ReportSubscription }) {
  const last = subscription.last_delivery;
  if (!last) return <span className="subscription-muted">Not sent yet</span>;
  return (
    <span data-testid="subscription-last-delivery" data-state={last.state}>
      <Tag minimal intent={last.state === 'sent' ? 'success' : 'danger'}>
        {last.state === 'sent' ? 'Sent' : 'Failed'}
      </Tag>{' '}
      {formatDateTime(last.created_at, subscription.time_zone)}
      {last.error ? <span className="subscription-error-text"> {last.error}</span> : null}
    </span>
  );
}

function RowActions(props: {
  subscription: ReportSubscription;
  actor: PageActor;
  editor: SubscriptionEditorActor;
  sendingId: number | undefined;
  renderingOn: boolean;
}) {
  const { subscription, actor, editor, sendingId, renderingOn } = props;
  return (
    <span className="subscription-actions">
      <Button
        small
        icon="edit"
        text="Edit"
        data-testid="subscription-edit"
        disabled={!renderingOn}
        onClick={() =>
          editor.send({
            type: 'subscribe.open',
            target: {
              clientId: subscription.client_id,
              pagePath: subscription.page_path,
              pageTitle: subscription.page_title,
              filters: subscription.filters,
            },
            subscription,
          })
        }
      />
      <Button
        small
        icon="send-message"
        text="Send now"
        data-testid="subscription-send"
        disabled={!renderingOn || sendingId !== undefined}
        loading={sendingId === subscription.id}
        onClick={() => actor.send({ type: 'send.now', subscription })}
      />
      <Button
        small
        minimal
        intent="danger"
        icon="trash"
        aria-label={`Delete ${subscription.name}`}
        data-testid="subscription-delete"
        onClick={() => actor.send({ type: 'remove.ask', subscription })}
      />
    </span>
  );
}

/**
 * Report Subscriptions (issue 34): the header's client's subscriptions, each with its page, schedule, formats,
 * recipients and last delivery; changed in the subscribe dialog, deleted after a confirmation, sent now. Without a
 * browser on the server the page says so, and only deleting is offered.
 */
export function ReportSubscriptionsPage({ title, header }: PageProps) {
  const actor = usePageActor(reportSubscriptionsMachine);
  useNoticeToasts(actor);
  const editor = useActorRef(subscriptionEditorMachine);
  useNoticeToasts(editor);
  useEffect(() => {
    const subscription = editor.on('subscription.saved', () => actor?.send({ type: 'list.refresh' }));
    return () => subscription.unsubscribe();
  }, [editor, actor]);
  const status = useSelector(actor, (state) => {
    if (!state || state.hasTag('loading')) return 'loading';
    if (state.matches({ list: 'failed' })) return 'failed';
    return state.matches({ list: 'waiting' }) ? 'waiting' : 'loaded';
  });
  const answer = useSelector(actor, (state) => state?.context.answer);
  const removing = useSelector(actor, (state) => state?.context.removing);
  const confirming = useSelector(actor, (state) => state?.matches({ remove: 'confirming' }) === true);
  const working = useSelector(actor, (state) => state?.matches({ remove: 'working' }) === true);
  const sendingId = useSelector(actor, (state) => state?.context.sending?.id);
  const rendering = answer?.rendering;
  const renderingOn = rendering?.available === true;

  const columns: readonly DataColumn<ReportSubscription>[] = [
    { key: 'name', header: 'Name', kind: 'text', render: (row) => row.name },
    { key: 'page', header: 'Page', kind: 'text', render: (row) => row.page_title },
    {
      key: 'schedule',
      header: 'Schedule',
      kind: 'text',
      render: (row) =>
        `${scheduleText({ frequency: row.frequency, hour: row.hour, weekday: row.weekday, monthDay: row.month_day })} (${row.time_zone})`,
    },
    { key: 'formats', header: 'Formats', kind: 'text', render: (row) => formatsText(row.formats) },
    {
      key: 'recipients',
      header: 'Recipients',
      kind: 'text',
      render: (row) => row.recipients.map((recipient) => recipient.email).join(', '),
    },
    { key: 'last', header: 'Last delivery', kind: 'status', render: (row) => <LastDelivery subscription={row} /> },
    {
      key: 'actions',
      header: 'Actions',
      kind: 'actions',
      render: (row) =>
        actor ? (
          <RowActions
            subscription={row}
            actor={actor}
            editor={editor}
            sendingId={sendingId}
            renderingOn={renderingOn}
          />
        ) : null,
    },
  ];

  return (
    <section className="report-subscriptions-page" data-testid="report-subscriptions-page">
      <PageHeader title={title} header={header} />
      <Card className="report-subscriptions-card">
        {rendering && !rendering.available ? (
          <Callout intent="warning" icon="disable" data-testid="subscriptions-unavailable" title="Not available">
            {rendering.message}
          </Callout>
        ) : null}
        <p className="subscription-muted">
          Subscribe to a report from its page (Subscribe beside Export CSV). Each recipient gets the page as they would
          see it.
        </p>
        {status === 'waiting' ? null : (
          <DataTable
            label="Report subscriptions"
            columns={columns}
            rows={status === 'loading' ? undefined : (answer?.data ?? [])}
            rowKey={(row) => row.id}
            rowAttributes={(row) => ({ 'data-testid': 'subscription-row', 'data-subscription-id': row.id })}
            testIdPrefix="subscriptions"
            skeleton={{ label: 'Loading subscription', testId: 'subscriptions-skeleton-row' }}
            empty={{
              title: 'No subscriptions yet.',
              description: 'Open a report page and press Subscribe.',
              icon: 'envelope',
              testId: 'subscriptions-empty',
            }}
            {...(status === 'failed'
              ? {
                  failed: {
                    message: 'The subscriptions could not be read.',
                    onRetry: () => actor?.send({ type: 'list.retry' }),
                    retryTestId: 'subscriptions-retry',
                  },
                }
              : {})}
          />
        )}
      </Card>
      <SubscriptionDialog actor={editor} />
      <ConfirmAlert
        confirming={confirming}
        working={working}
        intent="danger"
        icon="trash"
        confirmText="Delete"
        question={`Delete the subscription "${removing?.name ?? ''}"? Its recipients get no more mails from it.`}
        questionTestId="subscription-delete-question"
        onConfirm={() => actor?.send({ type: 'remove.confirm' })}
        onCancel={() => actor?.send({ type: 'remove.cancel' })}
      />
    </section>
  );
}
