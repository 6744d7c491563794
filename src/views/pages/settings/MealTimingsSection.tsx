import { Button, Card, Classes, HTMLTable, InputGroup, NonIdealState } from '@blueprintjs/core';
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { mealProblemMessage, mealTimingProblems } from '../../../domain/settings';
import type { MealTimingField, mealTimingsMachine } from '../../../machines/settings/mealTimingsMachine';
import { useNoticeToasts } from '../../common/Notifications';
import { RowDeleteButton } from './RowDeleteButton';

type MealsActor = ActorRefFrom<typeof mealTimingsMachine>;

/** The outlet's meal timings: rename or retime in place (saved together), add, delete. */
export function MealTimingsSection({ actor }: { readonly actor: MealsActor }) {
  useNoticeToasts(actor);
  const send = actor.send;
  const draft = useSelector(actor, (state) => state.context.draft);
  const deleting = useSelector(actor, (state) => state.context.deleting);
  const loading = useSelector(actor, (state) => state.hasTag('loading'));
  const saving = useSelector(actor, (state) => state.matches('saving'));
  const adding = useSelector(actor, (state) => state.matches('adding'));
  const failed = useSelector(actor, (state) => state.matches('failure'));
  const changeable = useSelector(
    actor,
    (state) =>
      state.context.draft
        .filter((row) => state.can({ type: 'meals.change', id: row.id, field: 'name', value: row.name }))
        .map((row) => row.id),
    shallowEqual,
  );
  const deletable = useSelector(
    actor,
    (state) =>
      state.context.draft.filter((row) => state.can({ type: 'meals.delete', id: row.id })).map((row) => row.id),
    shallowEqual,
  );
  const canAdd = useSelector(actor, (state) => state.can({ type: 'meals.add' }));
  const canSave = useSelector(actor, (state) => state.can({ type: 'meals.save' }));
  const canCancel = useSelector(actor, (state) => state.can({ type: 'meals.cancel' }));
  const problems = mealTimingProblems(draft);

  const change = (id: number, field: MealTimingField, value: string) =>
    send({ type: 'meals.change', id, field, value });

  return (
    <Card className="settings-section" data-testid="settings-meals">
      <div className="settings-section-head">
        <h2 className="settings-section-title">Meal timings</h2>
        <Button
          icon="add"
          text="Add meal timing"
          data-testid="meal-add"
          loading={adding}
          disabled={!canAdd}
          onClick={() => send({ type: 'meals.add' })}
        />
      </div>
      {failed ? (
        <NonIdealState
          icon="error"
          title="The meal timings could not be read"
          action={<Button text="Retry" icon="refresh" onClick={() => send({ type: 'meals.retry' })} />}
        />
      ) : !loading && draft.length === 0 ? (
        <NonIdealState icon="time" title="No meal timings yet" />
      ) : (
        <HTMLTable compact striped className="settings-table" aria-busy={loading}>
          <thead>
            <tr>
              <th>Name</th>
              <th>Start</th>
              <th>End</th>
              <th>
                <span className={Classes.TEXT_MUTED}>Delete</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {loading ? (
              <tr>
                <td colSpan={4} className={Classes.SKELETON}>
                  Loading
                </td>
              </tr>
            ) : null}
            {draft.map((row) => {
              const problem = problems.get(row.id);
              const intent = problem ? 'danger' : 'none';
              const canChange = changeable.includes(row.id);
              return (
                <tr key={row.id} data-testid="meal-row" data-id={row.id}>
                  <td>
                    <InputGroup
                      size="small"
                      aria-label="Meal name"
                      value={row.name}
                      maxLength={50}
                      disabled={!canChange}
                      intent={problem === 'name' ? 'danger' : 'none'}
                      data-testid="meal-name"
                      onChange={(event) => change(row.id, 'name', event.currentTarget.value)}
                    />
                    {problem ? <div className="settings-error">{mealProblemMessage(problem)}</div> : null}
                  </td>
                  <td>
                    <InputGroup
                      size="small"
                      type="time"
                      aria-label={`Start of ${row.name}`}
                      value={row.start_time}
                      disabled={!canChange}
                      intent={intent}
                      data-testid="meal-start"
                      onChange={(event) => change(row.id, 'start_time', event.currentTarget.value)}
                    />
                  </td>
                  <td>
                    <InputGroup
                      size="small"
                      type="time"
                      aria-label={`End of ${row.name}`}
                      value={row.end_time}
                      disabled={!canChange}
                      intent={intent}
                      data-testid="meal-end"
                      onChange={(event) => change(row.id, 'end_time', event.currentTarget.value)}
                    />
                  </td>
                  <td className="settings-row-actions">
                    <RowDeleteButton
                      name={row.name}
                      testId="meal-delete"
                      loading={deleting === row.id}
                      disabled={!deletable.includes(row.id)}
                      onDelete={() => send({ type: 'meals.delete', id: row.id })}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </HTMLTable>
      )}
      <div className="settings-actions">
        <Button text="Cancel" disabled={!canCancel} onClick={() => send({ type: 'meals.cancel' })} />
        <Button
          text="Save"
          intent="primary"
          data-testid="meals-save"
          loading={saving}
          disabled={!canSave}
          onClick={() => send({ type: 'meals.save' })}
        />
      </div>
    </Card>
  );
}
