import { Dialog, DialogBody, HTMLTable, InputGroup } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import dayjs from 'dayjs';
import type { ActorRefFrom } from 'xstate';
import { BREAKEVEN_TARGET_MESSAGE, DEPARTMENT_TITLES, parseTarget } from '../../../domain/breakeven';
import type { createBreakevenTargetsMachine } from '../../../machines/breakevenPageMachine';
import { DialogActions } from '../../common/DialogActions';
import { useNoticeToasts } from '../../common/Notifications';
import './breakeven.css';

type TargetsActor = ActorRefFrom<ReturnType<typeof createBreakevenTargetsMachine>>;

/** The department's targets of the month for the outlets shown, each in its outlet's currency; empty: none. */
export function BreakevenTargetsDialog({
  actor,
  onClose,
}: {
  readonly actor: TargetsActor;
  readonly onClose: () => void;
}) {
  useNoticeToasts(actor);
  const draft = useSelector(actor, (state) => state.context.draft);
  const saving = useSelector(actor, (state) => state.hasTag('saving'));
  const canSave = useSelector(actor, (state) => state.can({ type: 'editor.save' }));
  const title = draft
    ? `${DEPARTMENT_TITLES[draft.department]} targets of ${dayjs(`${draft.month}-01`).format('MMMM YYYY')}`
    : 'Targets';
  return (
    <Dialog isOpen title={title} onClose={onClose} data-testid="breakeven-targets-dialog">
      <DialogBody>
        <div className="breakeven-targets-scroll">
          <HTMLTable compact className="breakeven-targets">
            <thead>
              <tr>
                <th scope="col">Outlet</th>
                <th scope="col">Currency</th>
                <th scope="col">Breakeven Target</th>
              </tr>
            </thead>
            <tbody>
              {(draft?.outlets ?? []).map((outlet) => {
                const text = draft?.targets[outlet.id] ?? '';
                const wrong = parseTarget(text) === undefined;
                return (
                  <tr key={outlet.id}>
                    <th scope="row">{outlet.name}</th>
                    <td>{outlet.currency}</td>
                    <td>
                      <InputGroup
                        small
                        inputMode="decimal"
                        aria-label={`Target of ${outlet.name}`}
                        data-testid={`breakeven-target-${outlet.id}`}
                        value={text}
                        intent={wrong ? 'danger' : 'none'}
                        aria-invalid={wrong}
                        onValueChange={(value) =>
                          draft &&
                          actor.send({
                            type: 'editor.change',
                            value: { ...draft, targets: { ...draft.targets, [outlet.id]: value } },
                          })
                        }
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
        </div>
        {draft && Object.values(draft.targets).some((text) => parseTarget(text) === undefined) ? (
          <p className="breakeven-targets-problem" role="alert">
            {BREAKEVEN_TARGET_MESSAGE}
          </p>
        ) : null}
      </DialogBody>
      <DialogActions
        submitText="Save"
        submitTestId="breakeven-targets-save"
        busy={saving}
        canSubmit={canSave}
        onCancel={onClose}
        onSubmit={() => actor.send({ type: 'editor.save' })}
      />
    </Dialog>
  );
}
