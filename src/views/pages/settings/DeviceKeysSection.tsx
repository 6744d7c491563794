import {
  Button,
  Callout,
  Card,
  Classes,
  ControlGroup,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  InputGroup,
  Tag,
  TextArea,
} from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { DeviceKey, DeviceKeySortColumn } from '../../../api/deviceKeys';
import {
  copiedMessage,
  DEVICE_KEY_NAME_MAX_LENGTH,
  DEVICE_KEY_STATUS_NAMES,
  DEVICE_KEYS_SEARCH_MAX_LENGTH,
  DEVICE_KEYS_WAITING_MESSAGE,
  deviceKeyStatus,
  formatKeyTime,
  INGEST_RECEIPTS_PATH,
  ingestCurlExample,
  KEY_SHOWN_ONCE_MESSAGE,
  revokeQuestion,
} from '../../../domain/deviceKeys';
import { OUTLET_PLACEHOLDER, outletOptions } from '../../../domain/filterOptions';
import { DEVICE_KEYS_ROWS_PER_PAGE_OPTIONS } from '../../../machines/deviceKeysListMachine';
import type { deviceKeysMachine } from '../../../machines/deviceKeysMachine';
import { ConfirmAlert } from '../../common/ConfirmAlert';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { FormDialog } from '../../common/DialogActions';
import { useNoticeToasts } from '../../common/Notifications';
import { PagedList, type PagedListWording } from '../../common/PagedList';
import { SearchForm } from '../../common/SearchForm';
import { FilterHeaderContext } from '../../filters/filterHeaderContext';
import './deviceKeys.css';

type DevicesActor = ActorRefFrom<typeof deviceKeysMachine>;

/** The keys table's columns; the revoke button asks the machine whether the key can be revoked. */
function deviceKeyColumns(actor: DevicesActor): readonly DataColumn<DeviceKey, DeviceKeySortColumn>[] {
  return [
    { key: 'name', header: 'Name', kind: 'text', sort: 'name', render: (key) => key.name },
    { key: 'outlet', header: 'Outlet', kind: 'text', sort: 'outlet_name', render: (key) => key.outlet_name },
    {
      key: 'key',
      header: 'Key',
      kind: 'id',
      sort: 'key_prefix',
      render: (key) => <code className="device-key-prefix">{key.key_prefix}…</code>,
    },
    {
      key: 'created',
      header: 'Created',
      kind: 'datetime',
      sort: 'created_at',
      render: (key) => formatKeyTime(key.created_at),
    },
    {
      key: 'created_by',
      header: 'Created by',
      kind: 'text',
      sort: 'created_by',
      render: (key) => key.created_by ?? '—',
    },
    {
      key: 'last_used',
      header: 'Last used',
      kind: 'datetime',
      sort: 'last_used_at',
      render: (key) => (key.last_used_at === null ? 'Never' : formatKeyTime(key.last_used_at)),
    },
    {
      key: 'revoked',
      header: 'Revoked',
      kind: 'status',
      sort: 'revoked_at',
      render: (key) => {
        const status = deviceKeyStatus(key);
        return (
          <>
            <Tag minimal intent={status === 'active' ? 'success' : 'none'} data-testid="device-key-status">
              {DEVICE_KEY_STATUS_NAMES[status]}
            </Tag>
            {key.revoked_at === null ? null : ` ${formatKeyTime(key.revoked_at)}`}
          </>
        );
      },
    },
    {
      key: 'revoked_by',
      header: 'Revoked by',
      kind: 'text',
      sort: 'revoked_by',
      render: (key) => key.revoked_by ?? '—',
    },
    {
      key: 'actions',
      header: 'Actions',
      kind: 'actions',
      render: (key) => <RevokeButton actor={actor} deviceKey={key} />,
    },
  ];
}

const WORDING: PagedListWording = {
  failure: 'The device keys could not be read.',
  emptyIcon: 'key',
  empty: 'No device key of this mall matches.',
  unit: ['key', 'keys'],
  testId: 'device-keys',
};

/**
 * Settings' Point-of-sale devices: the device keys of the outlets of the mall of the header's outlet (sortable by
 * every column, searched, paged), a key created for one outlet of the mall and shown once with the call a device
 * makes with it, and a key revoked after a confirmation.
 */
export function DeviceKeysSection({ actor }: { readonly actor: DevicesActor }) {
  useNoticeToasts(actor);
  const list = useSelector(actor, (state) => state.children.list);
  useNoticeToasts(list);
  const scope = useSelector(actor, (state) => state.context.scope);
  const canCreate = useSelector(actor, (state) => state.can({ type: 'create.open' }));
  const mallName = FilterHeaderContext.useSelector(
    (state) => state.context.malls.find((mall) => mall.id === scope?.mallId)?.name,
  );
  return (
    <Card className="settings-section settings-wide" data-testid="settings-devices">
      <div className="settings-section-head">
        <h2 className="settings-section-title">Point-of-sale devices</h2>
        <Button
          icon="key"
          intent="primary"
          text="Create device key"
          data-testid="device-key-create"
          disabled={!canCreate}
          onClick={() => actor.send({ type: 'create.open' })}
        />
      </div>
      {scope && list ? (
        <>
          <p className={Classes.TEXT_MUTED} data-testid="device-keys-mall">
            The keys of the outlets of {mallName ?? `mall ${scope.mallId}`}. A device sends its receipts to POST{' '}
            <code>{INGEST_RECEIPTS_PATH}</code> with its key; a revoked key is refused.
          </p>
          <div className="device-keys-toolbar">
            <SearchForm
              key={`${scope.clientId}-${scope.mallId}`}
              label="Search name, outlet or key"
              maxLength={DEVICE_KEYS_SEARCH_MAX_LENGTH}
              onSearch={(text) => list.send({ type: 'list.search', text })}
              inputTestId="device-keys-search"
              buttonTestId="device-keys-search-button"
            />
          </div>
          <PagedList list={list} wording={WORDING} rowsPerPageOptions={DEVICE_KEYS_ROWS_PER_PAGE_OPTIONS}>
            {(view) => (
              <DeviceKeysTable
                actor={actor}
                rows={view.rows}
                sortColumn={view.sortColumn}
                order={view.order}
                onSort={view.onSort}
              />
            )}
          </PagedList>
        </>
      ) : (
        <Callout intent="primary" data-testid="device-keys-waiting">
          {DEVICE_KEYS_WAITING_MESSAGE}
        </Callout>
      )}
      <CreateDialog actor={actor} />
      <IssuedDialog actor={actor} />
      <RevokeAlert actor={actor} />
    </Card>
  );
}

function DeviceKeysTable({
  actor,
  rows,
  sortColumn,
  order,
  onSort,
}: {
  readonly actor: DevicesActor;
  /** Undefined while loading: skeleton rows. */
  readonly rows: readonly DeviceKey[] | undefined;
  readonly sortColumn: DeviceKeySortColumn;
  readonly order: 'asc' | 'desc';
  readonly onSort: (column: DeviceKeySortColumn) => void;
}) {
  return (
    <DataTable
      label="Device keys"
      className="device-keys-table"
      columns={deviceKeyColumns(actor)}
      rows={rows}
      rowKey={(key) => key.id}
      rowAttributes={(key) => ({
        'data-testid': 'device-key-row',
        'data-key-id': key.id,
        'data-status': deviceKeyStatus(key),
      })}
      sortColumn={sortColumn}
      order={order}
      onSort={onSort}
      testIdPrefix="device-keys"
      skeleton={{ label: 'Loading key', testId: 'device-keys-skeleton' }}
    />
  );
}

function RevokeButton({ actor, deviceKey }: { readonly actor: DevicesActor; readonly deviceKey: DeviceKey }) {
  const canRevoke = useSelector(actor, (state) => state.can({ type: 'revoke.ask', key: deviceKey }));
  return canRevoke ? (
    <Button
      size="small"
      variant="outlined"
      intent="danger"
      text="Revoke"
      aria-label={`Revoke ${deviceKey.name} (${deviceKey.key_prefix}…)`}
      data-testid="device-key-revoke"
      onClick={() => actor.send({ type: 'revoke.ask', key: deviceKey })}
    />
  ) : null;
}

function CreateDialog({ actor }: { readonly actor: DevicesActor }) {
  const draft = useSelector(actor, (state) => state.context.draft);
  const submitting = useSelector(actor, (state) => state.hasTag('creating'));
  const canSubmit = useSelector(actor, (state) => state.can({ type: 'create.submit' }));
  // A name's problem once something is typed (an empty field says nothing yet).
  const nameProblem = draft && draft.name !== '' ? draft.problems.name : undefined;
  const options = outletOptions(draft?.outlets ?? [], 'single');
  return (
    <FormDialog
      isOpen={draft !== undefined}
      title="Create a device key"
      formTestId="device-key-form"
      submitText="Create key"
      submitTestId="device-key-submit"
      busy={submitting}
      canSubmit={canSubmit}
      onCancel={() => actor.send({ type: 'create.cancel' })}
      onSubmit={() => actor.send({ type: 'create.submit' })}
    >
      <FormGroup
        label="Outlet"
        labelFor="device-key-outlet"
        helperText={draft?.problems.outlet ?? 'The key sends receipts of this outlet only.'}
        intent={draft?.problems.outlet ? 'danger' : 'none'}
      >
        <HTMLSelect
          id="device-key-outlet"
          fill
          value={draft?.outletId === undefined ? '' : String(draft.outletId)}
          disabled={submitting}
          data-testid="device-key-outlet"
          onChange={(event) => {
            const outletId = Number(event.currentTarget.value);
            if (Number.isInteger(outletId) && outletId > 0) actor.send({ type: 'create.change', outletId });
          }}
        >
          <option value="" disabled>
            {OUTLET_PLACEHOLDER}
          </option>
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup
        label="Name"
        labelFor="device-key-name"
        intent={nameProblem ? 'danger' : 'none'}
        helperText={nameProblem ?? 'What your staff call the device, such as "Till 2, front counter".'}
      >
        <InputGroup
          id="device-key-name"
          autoFocus
          maxLength={DEVICE_KEY_NAME_MAX_LENGTH}
          value={draft?.name ?? ''}
          disabled={submitting}
          intent={nameProblem ? 'danger' : 'none'}
          data-testid="device-key-name"
          onChange={(event) => actor.send({ type: 'create.change', name: event.currentTarget.value })}
        />
      </FormGroup>
      {draft?.error ? (
        <Callout intent="danger" role="alert" data-testid="device-key-error">
          {draft.error}
        </Callout>
      ) : null}
    </FormDialog>
  );
}

/** The key just created, shown this once: read-only, with Copy, and the call a device makes with it. */
function IssuedDialog({ actor }: { readonly actor: DevicesActor }) {
  const issued = useSelector(actor, (state) => state.context.issued);
  const copied = useSelector(actor, (state) => state.context.copied);
  const copying = useSelector(actor, (state) => state.hasTag('copying'));
  const example = issued ? ingestCurlExample(window.location.origin, issued.key) : '';
  return (
    <Dialog
      isOpen={issued !== undefined}
      title="Device key created"
      icon="key"
      isCloseButtonShown={false}
      canEscapeKeyClose={false}
      canOutsideClickClose={false}
    >
      <DialogBody>
        <Callout intent="warning" icon="warning-sign" data-testid="device-key-once">
          {KEY_SHOWN_ONCE_MESSAGE}
        </Callout>
        <p className="device-key-for">
          The key of <strong>{issued?.device_key.name}</strong> for {issued?.device_key.outlet_name}:
        </p>
        <FormGroup label="Device key" labelFor="device-key-value">
          <ControlGroup fill>
            <InputGroup
              id="device-key-value"
              readOnly
              fill
              className="device-key-value"
              value={issued?.key ?? ''}
              data-testid="device-key-value"
              onFocus={(event) => event.currentTarget.select()}
            />
            <Button
              icon="duplicate"
              text="Copy"
              aria-label="Copy the key"
              disabled={copying || !issued}
              data-testid="device-key-copy"
              onClick={() => issued && actor.send({ type: 'issued.copy', what: 'key', text: issued.key })}
            />
          </ControlGroup>
        </FormGroup>
        <FormGroup
          label={`Try it: one receipt sent to POST ${INGEST_RECEIPTS_PATH}`}
          labelFor="device-key-example"
          helperText="The device sends the key as Authorization: Bearer <key>."
        >
          <TextArea
            id="device-key-example"
            readOnly
            fill
            rows={4}
            className="device-key-value"
            value={example}
            data-testid="device-key-example"
            onFocus={(event) => event.currentTarget.select()}
          />
        </FormGroup>
        <div className="device-key-copy-row">
          <Button
            icon="duplicate"
            text="Copy"
            aria-label="Copy the example"
            disabled={copying || !issued}
            data-testid="device-key-copy-example"
            onClick={() => actor.send({ type: 'issued.copy', what: 'example', text: example })}
          />
          <span role="status" className={Classes.TEXT_MUTED} data-testid="device-key-copied">
            {copied ? copiedMessage(copied) : ''}
          </span>
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <Button
            intent="primary"
            text="Done"
            data-testid="device-key-done"
            onClick={() => actor.send({ type: 'issued.close' })}
          />
        }
      />
    </Dialog>
  );
}

function RevokeAlert({ actor }: { readonly actor: DevicesActor }) {
  const target = useSelector(actor, (state) => state.context.target);
  const confirming = useSelector(actor, (state) => state.matches({ ready: { revoking: 'confirming' } }));
  const working = useSelector(actor, (state) => state.hasTag('revoking'));
  return (
    <ConfirmAlert
      confirming={confirming}
      working={working}
      intent="danger"
      icon="disable"
      confirmText="Revoke"
      question={target ? revokeQuestion(target.key) : ''}
      questionTestId="device-key-revoke-question"
      onConfirm={() => actor.send({ type: 'revoke.confirm' })}
      onCancel={() => actor.send({ type: 'revoke.cancel' })}
    />
  );
}
