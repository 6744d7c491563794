import { FormGroup, HTMLSelect } from '@blueprintjs/core';
import { LayoutContext } from '../../machines/layoutContext';
import { FilterHeaderContext } from '../filters/filterHeaderContext';

/**
 * The sidebar's client selector (§2): the user's clients sorted case-insensitively (the layout machine's
 * list), the filter header's client selected. Choosing another client clears the selected malls and
 * reloads the outlets and malls (the filter header's `client.change`).
 */
export function ClientSelect() {
  const clients = LayoutContext.useSelector((state) => state.context.clients);
  const clientId = FilterHeaderContext.useSelector((state) => state.context.filters.clientId);
  const headerActor = FilterHeaderContext.useActorRef();
  return (
    <FormGroup label="Client" labelFor="client-select" className="app-sidebar-clients">
      <HTMLSelect
        id="client-select"
        data-testid="client-select"
        fill
        value={clientId ?? ''}
        options={clients.map((client) => ({ value: client.id, label: client.name }))}
        onChange={(event) => headerActor.send({ type: 'client.change', clientId: Number(event.currentTarget.value) })}
      />
    </FormGroup>
  );
}
