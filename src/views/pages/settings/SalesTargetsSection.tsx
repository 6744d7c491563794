import { Button, Card, Classes, HTMLSelect, HTMLTable, InputGroup, NonIdealState } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import { formatMoney, formatMonth } from '../../../domain/format';
import {
  parseTarget,
  TARGET_INVALID_MESSAGE,
  TARGETS_MONTH_HELD_MESSAGE,
  targetMonths,
} from '../../../domain/settings';
import type {
  createSalesTargetsEditorMachine,
  SalesTargetsValue,
  salesTargetsMachine,
} from '../../../machines/settings/salesTargetsMachine';
import { useNoticeToasts } from '../../common/Notifications';

type TargetsActor = ActorRefFrom<typeof salesTargetsMachine>;
type TargetsEditorActor = ActorRefFrom<ReturnType<typeof createSalesTargetsEditorMachine>>;

/** The month picker ('MMMM YYYY') and the client's outlets with their target for that month. */
export function SalesTargetsSection({ actor }: { readonly actor: TargetsActor }) {
  const month = useSelector(actor, (state) => state.context.month);
  const today = useSelector(actor, (state) => state.context.today);
  const editor = useSelector(actor, (state) => state.children.editor);
  const months = useMemo(() => targetMonths(today), [today]);
  const held = useSelector(actor, (state) => state.hasTag('held'));
  return (
    <Card className="settings-section" data-testid="settings-targets">
      <div className="settings-section-head">
        <h2 className="settings-section-title">Sales targets</h2>
        <HTMLSelect
          aria-label="Month"
          data-testid="targets-month"
          value={month}
          disabled={held}
          aria-describedby={held ? 'targets-month-held' : undefined}
          options={months.map((value) => ({ value, label: formatMonth(value) }))}
          onChange={(event) => actor.send({ type: 'targets.month', month: event.currentTarget.value })}
        />
      </div>
      {held ? (
        <p id="targets-month-held" className={Classes.TEXT_MUTED} data-testid="targets-month-held">
          {TARGETS_MONTH_HELD_MESSAGE}
        </p>
      ) : null}
      {editor ? <SalesTargetsTable editor={editor} /> : null}
    </Card>
  );
}

function SalesTargetsTable({ editor }: { readonly editor: TargetsEditorActor }) {
  useNoticeToasts(editor);
  const send = editor.send;
  const draft = useSelector(editor, (state) => state.context.draft);
  const loading = useSelector(editor, (state) => state.hasTag('loading'));
  const saving = useSelector(editor, (state) => state.hasTag('saving'));
  const failed = useSelector(editor, (state) => state.matches('failure'));
  const canChange = useSelector(
    editor,
    (state) => state.context.draft !== undefined && state.can({ type: 'editor.change', value: state.context.draft }),
  );
  const canSave = useSelector(editor, (state) => state.can({ type: 'editor.save' }));
  const canCancel = useSelector(editor, (state) => state.can({ type: 'editor.cancel' }));

  const change = (value: SalesTargetsValue, outletId: number, text: string) =>
    send({
      type: 'editor.change',
      value: { ...value, rows: value.rows.map((row) => (row.outletId === outletId ? { ...row, text } : row)) },
    });

  if (failed) {
    return (
      <NonIdealState
        icon="error"
        title="The sales targets could not be read"
        action={<Button text="Retry" icon="refresh" onClick={() => send({ type: 'editor.retry' })} />}
      />
    );
  }
  return (
    <>
      <div className="settings-scroll">
        <HTMLTable compact striped className="settings-table" aria-busy={loading}>
          <thead>
            <tr>
              <th>Outlet</th>
              <th className="settings-number">Target</th>
            </tr>
          </thead>
          <tbody>
            {(draft?.rows ?? []).map((row) => {
              const parsed = parseTarget(row.text);
              const invalid = parsed === undefined;
              const inputId = `target-${row.outletId}`;
              return (
                <tr key={row.outletId} data-testid="target-row" data-outlet={row.outletId}>
                  <td>
                    <label htmlFor={inputId}>{row.name}</label>
                  </td>
                  <td className="settings-number">
                    <InputGroup
                      id={inputId}
                      size="small"
                      leftElement={<span className="settings-unit">$</span>}
                      value={row.text}
                      placeholder="No target"
                      disabled={!canChange}
                      intent={invalid ? 'danger' : 'none'}
                      aria-invalid={invalid}
                      title={invalid ? TARGET_INVALID_MESSAGE : undefined}
                      data-testid="target-input"
                      onChange={(event) => draft && change(draft, row.outletId, event.currentTarget.value)}
                    />
                    {invalid ? <div className="settings-error">{TARGET_INVALID_MESSAGE}</div> : null}
                    {typeof parsed === 'number' ? (
                      <div className={Classes.TEXT_MUTED} data-testid="target-money">
                        {formatMoney(parsed)}
                      </div>
                    ) : null}
                  </td>
                </tr>
              );
            })}
            {loading && !draft ? (
              <tr>
                <td className={Classes.SKELETON}>Loading</td>
                <td className={Classes.SKELETON}>Loading</td>
              </tr>
            ) : null}
          </tbody>
        </HTMLTable>
      </div>
      <div className="settings-actions">
        <Button text="Cancel" disabled={!canCancel} onClick={() => send({ type: 'editor.cancel' })} />
        <Button
          text="Save"
          intent="primary"
          data-testid="targets-save"
          loading={saving}
          disabled={!canSave}
          onClick={() => send({ type: 'editor.save' })}
        />
      </div>
    </>
  );
}
