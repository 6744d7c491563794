import { Button, Classes, Dialog, DialogBody, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import {
  MIN_BASELINE_CHOICES,
  parseSilenceMinutes,
  parseUnusualThreshold,
  SILENCE_MINUTES_MESSAGE,
  UNUSUAL_THRESHOLD_MESSAGE,
} from '../../../domain/dataFeeds';
import type { feedRulesMachine } from '../../../machines/feedRulesMachine';
import { DialogActions } from '../../common/DialogActions';
import { useNoticeToasts } from '../../common/Notifications';

type RulesActor = ActorRefFrom<typeof feedRulesMachine>;

/**
 * The client's feed and unusual-day rules in a dialog: the minutes without a receipt before an outlet that usually trades at the
 * hour is silent (its operators are told), and when the daily summary calls a day unusual.
 */
export function FeedRulesDialog({ actor, onClose }: { readonly actor: RulesActor; readonly onClose: () => void }) {
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
  const minutesWrong = draft !== undefined && parseSilenceMinutes(draft.silenceText) === undefined;
  const thresholdWrong = draft !== undefined && parseUnusualThreshold(draft.thresholdText) === undefined;
  const skeleton = loading ? Classes.SKELETON : undefined;
  return (
    <Dialog isOpen title="Feed and unusual-day rules" onClose={onClose} data-testid="feed-rules-dialog">
      <DialogBody>
        <FormGroup
          label="Silent after (minutes)"
          labelFor="feed-rules-minutes"
          helperText={
            minutesWrong
              ? SILENCE_MINUTES_MESSAGE
              : 'An outlet that usually trades at the hour and sends no receipt for this long raises a feed alert.'
          }
          intent={minutesWrong ? 'danger' : 'none'}
          className={skeleton}
        >
          <InputGroup
            id="feed-rules-minutes"
            data-testid="feed-rules-minutes"
            inputMode="numeric"
            value={draft?.silenceText ?? ''}
            disabled={!canChange}
            intent={minutesWrong ? 'danger' : 'none'}
            onValueChange={(value) => draft && send({ type: 'editor.change', value: { ...draft, silenceText: value } })}
          />
        </FormGroup>
        <FormGroup
          label="Unusual day threshold"
          labelFor="feed-rules-threshold"
          helperText={
            thresholdWrong
              ? UNUSUAL_THRESHOLD_MESSAGE
              : 'A day this many robust deviations from its usual weekday (and over 10% off) is in What changed.'
          }
          intent={thresholdWrong ? 'danger' : 'none'}
          className={skeleton}
        >
          <InputGroup
            id="feed-rules-threshold"
            data-testid="feed-rules-threshold"
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
          label="Judged on at least (weekdays of the last 8 weeks)"
          labelFor="feed-rules-baseline"
          helperText="Festivals, non-trading days and days before an outlet opened do not count."
          className={skeleton}
        >
          <HTMLSelect
            id="feed-rules-baseline"
            data-testid="feed-rules-baseline"
            value={draft?.minBaseline ?? 5}
            disabled={!canChange}
            options={[...MIN_BASELINE_CHOICES]}
            onChange={(event) =>
              draft &&
              send({ type: 'editor.change', value: { ...draft, minBaseline: Number(event.currentTarget.value) } })
            }
          />
        </FormGroup>
      </DialogBody>
      <DialogActions
        before={
          failedToLoad ? <Button text="Retry" icon="refresh" onClick={() => send({ type: 'editor.retry' })} /> : null
        }
        submitText="Save"
        submitTestId="feed-rules-save"
        busy={saving}
        canSubmit={canSave}
        onCancel={onClose}
        onSubmit={() => send({ type: 'editor.save' })}
      />
    </Dialog>
  );
}
