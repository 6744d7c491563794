import { Button, Classes, Dialog, DialogBody, FormGroup, HTMLSelect, InputGroup, Switch } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { GTO_DUE_DAY_MESSAGE, GTO_THRESHOLD_MESSAGE, isDueDay, parseThreshold } from '../../../domain/gto';
import type { gtoRulesMachine } from '../../../machines/gto/gtoRulesMachine';
import { DialogActions } from '../../common/DialogActions';
import { useNoticeToasts } from '../../common/Notifications';

type RulesActor = ActorRefFrom<typeof gtoRulesMachine>;

const DUE_DAYS = Array.from({ length: 28 }, (_, index) => index + 1);

/**
 * The client's GTO review rules in a dialog: the variance beyond which a month is flagged, the day of the
 * following month a month is due, and the reminder e-mails to outlets that have not submitted by then.
 */
export function GtoRulesDialog({ actor, onClose }: { readonly actor: RulesActor; readonly onClose: () => void }) {
  useNoticeToasts(actor);
  const send = actor.send;
  const draft = useSelector(actor, (state) => state.context.draft);
  const loading = useSelector(actor, (state) => state.hasTag('loading'));
  const saving = useSelector(actor, (state) => state.hasTag('saving'));
  const failedToLoad = useSelector(actor, (state) => state.matches('failure'));
  const canSave = useSelector(actor, (state) => state.can({ type: 'editor.save' }));
  const canChange = useSelector(
    actor,
    (state) => state.context.draft !== undefined && state.can({ type: 'editor.change', value: state.context.draft }),
  );
  const thresholdWrong = draft !== undefined && parseThreshold(draft.thresholdText) === undefined;
  const dueDayWrong = draft !== undefined && !isDueDay(draft.dueDay);
  const skeleton = loading ? Classes.SKELETON : undefined;
  return (
    <Dialog isOpen title="GTO review rules" onClose={onClose} data-testid="gto-rules-dialog">
      <DialogBody>
        <FormGroup
          label="Variance threshold (%)"
          labelFor="gto-rules-threshold"
          helperText={thresholdWrong ? GTO_THRESHOLD_MESSAGE : 'A submitted month is flagged beyond it, either way.'}
          intent={thresholdWrong ? 'danger' : 'none'}
          className={skeleton}
        >
          <InputGroup
            id="gto-rules-threshold"
            data-testid="gto-rules-threshold"
            inputMode="decimal"
            value={draft?.thresholdText ?? ''}
            disabled={!canChange}
            intent={thresholdWrong ? 'danger' : 'none'}
            onValueChange={(value) =>
              draft && send({ type: 'editor.change', value: { ...draft, thresholdText: value } })
            }
          />
        </FormGroup>
        <FormGroup
          label="Due on day of the following month"
          labelFor="gto-rules-due-day"
          helperText={dueDayWrong ? GTO_DUE_DAY_MESSAGE : 'Months submitted after it are tagged Late.'}
          className={skeleton}
        >
          <HTMLSelect
            id="gto-rules-due-day"
            data-testid="gto-rules-due-day"
            value={draft?.dueDay ?? 7}
            disabled={!canChange}
            options={DUE_DAYS}
            onChange={(event) =>
              draft && send({ type: 'editor.change', value: { ...draft, dueDay: Number(event.currentTarget.value) } })
            }
          />
        </FormGroup>
        <Switch
          className={skeleton}
          data-testid="gto-rules-reminders"
          label="E-mail a reminder each day to the tenants of outlets that have not submitted by the due day"
          checked={draft?.reminders ?? false}
          disabled={!canChange}
          onChange={(event) =>
            draft && send({ type: 'editor.change', value: { ...draft, reminders: event.currentTarget.checked } })
          }
        />
      </DialogBody>
      <DialogActions
        before={
          failedToLoad ? <Button text="Retry" icon="refresh" onClick={() => send({ type: 'editor.retry' })} /> : null
        }
        submitText="Save"
        submitTestId="gto-rules-save"
        busy={saving}
        canSubmit={canSave}
        onCancel={onClose}
        onSubmit={() => send({ type: 'editor.save' })}
      />
    </Dialog>
  );
}
