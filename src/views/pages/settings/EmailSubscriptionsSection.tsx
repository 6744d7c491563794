import { Button, Card, Classes, Switch } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { emailSubscriptionsMachine } from '../../../machines/settings/emailSubscriptionsMachine';
import { useNoticeToasts } from '../../common/Notifications';

/** The signed-in user's e-mail subscriptions for the client: void-receipt alerts and the daily summary. */
export function EmailSubscriptionsSection({
  actor,
}: {
  readonly actor: ActorRefFrom<typeof emailSubscriptionsMachine>;
}) {
  useNoticeToasts(actor);
  const send = actor.send;
  const draft = useSelector(actor, (state) => state.context.draft);
  const loading = useSelector(actor, (state) => state.hasTag('loading'));
  const saving = useSelector(actor, (state) => state.hasTag('saving'));
  const failedToLoad = useSelector(actor, (state) => state.matches('failure'));
  const canChange = useSelector(
    actor,
    (state) => state.context.draft !== undefined && state.can({ type: 'editor.change', value: state.context.draft }),
  );
  const canSave = useSelector(actor, (state) => state.can({ type: 'editor.save' }));
  const canCancel = useSelector(actor, (state) => state.can({ type: 'editor.cancel' }));
  return (
    <Card className="settings-section" data-testid="settings-email">
      <h2 className="settings-section-title">E-mail subscriptions</h2>
      <div className={loading ? Classes.SKELETON : undefined}>
        <Switch
          label="Void receipt alerts"
          checked={draft?.voidEmail ?? false}
          disabled={!canChange}
          data-testid="email-void"
          onChange={(event) =>
            draft && send({ type: 'editor.change', value: { ...draft, voidEmail: event.currentTarget.checked } })
          }
        />
        <Switch
          label="Daily summary"
          checked={draft?.summaryEmail ?? false}
          disabled={!canChange}
          data-testid="email-summary"
          onChange={(event) =>
            draft && send({ type: 'editor.change', value: { ...draft, summaryEmail: event.currentTarget.checked } })
          }
        />
      </div>
      <div className="settings-actions">
        {failedToLoad ? <Button text="Retry" icon="refresh" onClick={() => send({ type: 'editor.retry' })} /> : null}
        <Button text="Cancel" disabled={!canCancel} onClick={() => send({ type: 'editor.cancel' })} />
        <Button
          text="Save"
          intent="primary"
          data-testid="email-save"
          loading={saving}
          disabled={!canSave}
          onClick={() => send({ type: 'editor.save' })}
        />
      </div>
    </Card>
  );
}
