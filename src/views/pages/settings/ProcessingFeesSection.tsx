import { Button, Card, Classes, FormGroup, HTMLTable, InputGroup, NonIdealState, Tag } from '@blueprintjs/core';
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { formatFee } from '../../../domain/settings';
import type { processingFeesMachine } from '../../../machines/settings/processingFeesMachine';
import { useNoticeToasts } from '../../common/Notifications';
import { DateRangePicker } from '../../filters/DateRangePicker';

type FeesActor = ActorRefFrom<typeof processingFeesMachine>;

/** The outlet's payment methods seen in the lookup range, each with its fee; a row toggles into edit mode. */
export function ProcessingFeesSection({ actor }: { readonly actor: FeesActor }) {
  useNoticeToasts(actor);
  const send = actor.send;
  const range = useSelector(actor, (state) => state.children.range);
  const rows = useSelector(actor, (state) => state.context.rows);
  const edit = useSelector(actor, (state) => state.context.edit);
  const feeError = useSelector(actor, (state) => state.context.feeError);
  const loading = useSelector(actor, (state) => state.hasTag('loading'));
  const saving = useSelector(actor, (state) => state.hasTag('saving'));
  const failed = useSelector(actor, (state) => state.matches('failure'));
  const editable = useSelector(
    actor,
    (state) =>
      state.context.rows
        .filter((row) => state.can({ type: 'fees.edit', method: row.payment_method }))
        .map((row) => row.payment_method),
    shallowEqual,
  );
  const canSave = useSelector(actor, (state) => state.can({ type: 'fees.save' }));
  return (
    <Card className="settings-section" data-testid="settings-fees">
      <div className="settings-section-head">
        <h2 className="settings-section-title">Processing fees</h2>
        {range ? <DateRangePicker actorRef={range} /> : null}
      </div>
      {failed ? (
        <NonIdealState
          icon="error"
          title="The processing fees could not be read"
          action={<Button text="Retry" icon="refresh" onClick={() => send({ type: 'fees.retry' })} />}
        />
      ) : !loading && rows.length === 0 ? (
        <NonIdealState icon="dollar" title="No Data" description="No payment method in this date range." />
      ) : (
        <HTMLTable compact striped className="settings-table" aria-busy={loading}>
          <thead>
            <tr>
              <th>Payment method</th>
              <th className="settings-number">Fee (%)</th>
              <th>
                <span className={Classes.TEXT_MUTED}>Edit</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const editing = edit?.method === row.payment_method;
              const inputId = `fee-${row.payment_method}`;
              return (
                <tr key={row.payment_method} data-testid="fee-row" data-method={row.payment_method}>
                  <td className={loading ? Classes.SKELETON : undefined}>
                    {row.payment_method}{' '}
                    {row.isNewMethod ? (
                      <Tag minimal intent="warning">
                        New
                      </Tag>
                    ) : null}
                  </td>
                  <td className="settings-number">
                    {editing ? (
                      <FormGroup
                        className="settings-inline-form"
                        labelFor={inputId}
                        label={<span className={Classes.TEXT_MUTED}>Fee for {row.payment_method}</span>}
                        intent={feeError ? 'danger' : 'none'}
                        helperText={feeError}
                      >
                        <InputGroup
                          id={inputId}
                          autoFocus
                          size="small"
                          value={edit.text}
                          rightElement={<span className="settings-unit">%</span>}
                          intent={feeError ? 'danger' : 'none'}
                          data-testid="fee-input"
                          onChange={(event) => send({ type: 'fees.change', text: event.currentTarget.value })}
                          onKeyDown={(event) => {
                            if (event.key === 'Enter') send({ type: 'fees.save' });
                            if (event.key === 'Escape') send({ type: 'fees.cancel' });
                          }}
                        />
                      </FormGroup>
                    ) : (
                      <span data-testid="fee-value" className={loading ? Classes.SKELETON : undefined}>
                        {formatFee(row.processing_fees)}
                      </span>
                    )}
                  </td>
                  <td className="settings-row-actions">
                    {editing ? (
                      <>
                        <Button
                          size="small"
                          intent="primary"
                          text="Save"
                          data-testid="fee-save"
                          loading={saving}
                          disabled={!canSave}
                          onClick={() => send({ type: 'fees.save' })}
                        />
                        <Button
                          size="small"
                          text="Cancel"
                          disabled={saving}
                          onClick={() => send({ type: 'fees.cancel' })}
                        />
                      </>
                    ) : (
                      <Button
                        size="small"
                        icon="edit"
                        aria-label={`Edit the fee of ${row.payment_method}`}
                        data-testid="fee-edit"
                        disabled={!editable.includes(row.payment_method)}
                        onClick={() => send({ type: 'fees.edit', method: row.payment_method })}
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}
