import { Button, Callout, Card, Classes, InputGroup, NonIdealState } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { OutletCodeSortColumn } from '../../../api/outletCodes';
import { formatNumber } from '../../../domain/format';
import {
  isCodeChanged,
  OUTLET_CODE_MAX_LENGTH,
  OUTLET_CODES_HELD_MESSAGE,
  type OutletCodeDraftRow,
  outletCodeDraftOf,
  refusalAt,
} from '../../../domain/outletCodes';
import { lastPage } from '../../../domain/paging';
import {
  OUTLET_CODE_ROWS_PER_PAGE_OPTIONS,
  type OutletCodeEvent,
  outletCodeMachine,
  refusalOf,
} from '../../../machines/outletCodeMachine';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { useNoticeToasts } from '../../common/Notifications';
import { Pager } from '../../common/Pager';
import { SearchForm } from '../../common/SearchForm';
import { usePageActor } from '../../common/usePageActor';
import { usePagedListView } from '../../common/usePagedListView';
import { FilterHeaderContext } from '../../filters/filterHeaderContext';
import { MallsSelect } from '../../filters/MallsSelect';
import { PageTitle } from '../../filters/PageTitle';
import type { PageProps } from '../pageProps';
import '../../filters/filters.css';
import './outletCode.css';

type PageActor = ActorRefFrom<typeof outletCodeMachine>;
type ListActor = NonNullable<ReturnType<PageActor['getSnapshot']>['children']['list']>;
type EditorActor = NonNullable<ReturnType<PageActor['getSnapshot']>['children']['editor']>;
type Send = (event: OutletCodeEvent) => void;

/** The longest search the call takes (the contract's maxLength). */
const SEARCH_MAX_LENGTH = 100;

/** The page's controls (§2: no mall header here): its title and the Malls multi-select. */
function OutletCodeHeader({ title }: { readonly title: string }) {
  const disabled = FilterHeaderContext.useSelector((state) => state.hasTag('disabled'));
  return (
    <header data-testid="outlet-code-header" aria-busy={disabled} className="mall-header">
      <PageTitle title={title} />
      <div className="mall-header-controls">
        <MallsSelect />
      </div>
    </header>
  );
}

/**
 * Outlet Code (Shopper Connect): the selected malls' outlets with their codes, searchable by outlet name or code,
 * sortable by every column, each code edited in place and saved together ('Save Successfully.' / 'Save Failed.');
 * a code the server refuses shows its reason at the field.
 */
export function OutletCodePage({ title }: PageProps) {
  const page = usePageActor(outletCodeMachine);
  const list = useSelector(page, (state) => state?.children.list);
  const editor = useSelector(page, (state) => state?.children.editor);
  const held = useSelector(page, (state) => state?.hasTag('held') ?? false);
  useNoticeToasts(list);
  useNoticeToasts(editor);
  const send: Send = (event) => page?.send(event);
  return (
    <section className="outlet-code-page" data-testid="outlet-code-page">
      <OutletCodeHeader title={title} />
      <Card className="outlet-code-card">
        <div className="outlet-code-toolbar">
          <SearchForm
            label="Search outlet or code"
            maxLength={SEARCH_MAX_LENGTH}
            disabled={!list || held}
            onSearch={(text) => send({ type: 'list.search', text })}
            inputTestId="outlet-code-search"
            buttonTestId="outlet-code-search-button"
          />
          {held ? (
            <span id="outlet-code-held" className={Classes.TEXT_MUTED} data-testid="outlet-code-held">
              {OUTLET_CODES_HELD_MESSAGE}
            </span>
          ) : null}
        </div>
        {list ? (
          <OutletCodeList list={list} editor={editor} held={held} send={send} />
        ) : (
          <OutletCodeTable rows={undefined} />
        )}
      </Card>
    </section>
  );
}

function OutletCodeList({
  list,
  editor,
  held,
  send,
}: {
  readonly list: ListActor;
  readonly editor: EditorActor | undefined;
  readonly held: boolean;
  readonly send: Send;
}) {
  const view = usePagedListView(list);
  const listRows = view.rows;
  const draft = useSelector(editor, (state) => state?.context.draft);
  const canChange = useSelector(
    editor,
    (state) => state?.context.draft !== undefined && state.can({ type: 'editor.change', value: state.context.draft }),
  );
  const canSave = useSelector(editor, (state) => state?.can({ type: 'editor.save' }) ?? false);
  const canCancel = useSelector(editor, (state) => state?.can({ type: 'editor.cancel' }) ?? false);
  const saving = useSelector(editor, (state) => state?.hasTag('saving') ?? false);
  const refusal = useSelector(editor, (state) => refusalOf(state?.context.saveError));

  if (view.failed) {
    return (
      <NonIdealState
        icon="error"
        title="The outlet codes could not be read."
        description="Please try again."
        action={
          <Button icon="refresh" data-testid="outlet-code-retry" onClick={() => send({ type: 'list.retry' })}>
            Retry
          </Button>
        }
      />
    );
  }
  if (view.empty) return <NonIdealState icon="barcode" title="No Data" description="No outlet matches." />;
  // The editor's draft of the rows shown; the list's rows (not editable) until the editor has them.
  const drafted = draft !== undefined && sameOutlets(draft.rows, listRows);
  const rows = view.loading ? undefined : drafted ? draft.rows : outletCodeDraftOf(0, listRows).rows;
  return (
    <form
      className="outlet-code-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (canSave) editor?.send({ type: 'editor.save' });
      }}
    >
      <div className={Classes.TEXT_MUTED} data-testid="outlet-code-total">
        {view.loading ? '' : `${formatNumber(view.total)} ${view.total === 1 ? 'outlet' : 'outlets'}`}
      </div>
      {refusal && refusal.outletId === undefined ? (
        <Callout intent="danger" data-testid="outlet-code-refusal">
          {refusal.message}
        </Callout>
      ) : null}
      <OutletCodeTable
        rows={rows}
        sortColumn={view.sortColumn}
        order={view.order}
        onSort={held ? undefined : (column) => send({ type: 'list.sort', column })}
        editable={canChange && drafted}
        errorOf={(row) => refusalAt(row, refusal)}
        onChange={(outletId, text) => send({ type: 'code.change', outletId, text })}
      />
      <div className="outlet-code-actions">
        <Button
          text="Cancel"
          data-testid="outlet-code-cancel"
          disabled={!canCancel}
          onClick={() => editor?.send({ type: 'editor.cancel' })}
        />
        <Button
          type="submit"
          text="Save"
          intent="primary"
          data-testid="outlet-code-save"
          loading={saving}
          disabled={!canSave}
        />
      </div>
      <Pager
        testId="outlet-code-pager"
        page={view.page}
        pages={lastPage(view.total, view.rowsPerPage)}
        canPrevious={view.canPrevious && !held}
        canNext={view.canNext && !held}
        rowsPerPage={view.rowsPerPage}
        rowsPerPageOptions={OUTLET_CODE_ROWS_PER_PAGE_OPTIONS}
        onPage={(next) => send({ type: 'list.page', page: next })}
        onRowsPerPage={(value) => send({ type: 'list.rowsPerPage', rowsPerPage: value })}
      />
    </form>
  );
}

/** Whether the draft's rows are the outlets the list shows, in its order. */
function sameOutlets(drafted: readonly OutletCodeDraftRow[], shown: readonly { outlet_id: number }[]): boolean {
  return drafted.length === shown.length && drafted.every((row, index) => row.outletId === shown[index]?.outlet_id);
}

function OutletCodeTable({
  rows,
  sortColumn,
  order,
  onSort,
  editable = false,
  errorOf = () => undefined,
  onChange = () => undefined,
}: {
  /** Undefined while loading: skeleton rows. */
  readonly rows: readonly OutletCodeDraftRow[] | undefined;
  readonly sortColumn?: OutletCodeSortColumn;
  readonly order?: 'asc' | 'desc';
  /** Undefined: the columns do not sort now. */
  readonly onSort?: (column: OutletCodeSortColumn) => void;
  readonly editable?: boolean;
  /** The server's refusal of a row's code, shown at its field. */
  readonly errorOf?: (row: OutletCodeDraftRow) => string | undefined;
  readonly onChange?: (outletId: number, text: string) => void;
}) {
  const columns: readonly DataColumn<OutletCodeDraftRow, OutletCodeSortColumn>[] = [
    { key: 'mall', header: 'Mall', kind: 'text', sort: 'mall_name', render: (row) => row.mallName },
    { key: 'outlet', header: 'Outlet', kind: 'text', sort: 'outlet_name', render: (row) => row.outletName },
    {
      key: 'code',
      header: 'Code',
      kind: 'id',
      sort: 'outlet_code',
      render: (row) => {
        const error = errorOf(row);
        const errorId = `outlet-code-error-${row.outletId}`;
        return (
          <div className="outlet-code-cell">
            <InputGroup
              size="small"
              value={row.text}
              placeholder="No code"
              maxLength={OUTLET_CODE_MAX_LENGTH}
              disabled={!editable}
              intent={error ? 'danger' : isCodeChanged(row) ? 'primary' : 'none'}
              aria-label={`Code of ${row.outletName}`}
              aria-invalid={error !== undefined}
              aria-describedby={error ? errorId : undefined}
              data-testid="outlet-code-input"
              onChange={(event) => onChange(row.outletId, event.currentTarget.value)}
            />
            {error ? (
              <div id={errorId} className="outlet-code-error" role="alert" data-testid="outlet-code-error">
                {error}
              </div>
            ) : null}
          </div>
        );
      },
    },
  ];
  return (
    <DataTable
      label="Outlet codes"
      className="outlet-code-table"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.outletId}
      rowAttributes={(row) => ({
        'data-testid': 'outlet-code-row',
        'data-outlet': row.outletId,
        'data-changed': isCodeChanged(row),
      })}
      sortColumn={sortColumn}
      order={order}
      onSort={onSort}
      testIdPrefix="outlet-code"
      skeleton={{ label: 'Loading outlet', testId: 'outlet-code-skeleton-row' }}
    />
  );
}
