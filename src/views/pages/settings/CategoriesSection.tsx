import { Button, Card, Checkbox, Classes, Dialog, DialogBody, FormGroup, InputGroup, Spinner } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { UIEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { Category, Subcategory } from '../../../api/settings';
import { lastPage } from '../../../domain/paging';
import { CATEGORY_TYPE, type CategoryType, categoryTypeName, splitMatch } from '../../../domain/settings';
import {
  CATEGORY_ROWS_PER_PAGE_OPTIONS,
  type categoriesMachine,
  type createCategoriesListMachine,
  type createSubcategoriesListMachine,
} from '../../../machines/settings/categoriesMachine';
import { ConfirmAlert } from '../../common/ConfirmAlert';
import { DataTable } from '../../common/DataTable';
import { DialogActions, FormDialog } from '../../common/DialogActions';
import { useNoticeToasts } from '../../common/Notifications';
import { Pager } from '../../common/Pager';
import { SearchForm } from '../../common/SearchForm';
import { RowDeleteButton } from './RowDeleteButton';

type CategoriesActor = ActorRefFrom<typeof categoriesMachine>;
type CategoryListActor = ActorRefFrom<ReturnType<typeof createCategoriesListMachine>>;
type SubcategoryListActor = ActorRefFrom<ReturnType<typeof createSubcategoriesListMachine>>;

/** How close to the bottom of the options (px) the next page is asked. */
const SCROLL_MARGIN = 24;

/** Categories and subcategories of the client: paged lists, a create dialog, delete, and the assignment dialog. */
export function CategoriesSection({ actor }: { readonly actor: CategoriesActor }) {
  useNoticeToasts(actor);
  const categories = useSelector(actor, (state) => state.children.categories);
  const subcategories = useSelector(actor, (state) => state.children.subcategories);
  useNoticeToasts(categories);
  useNoticeToasts(subcategories);
  return (
    <Card className="settings-section settings-wide" data-testid="settings-categories">
      <h2 className="settings-section-title">Categories and subcategories</h2>
      <div className="settings-lists">
        {categories ? <CategoryList actor={actor} list={categories} categoryType={CATEGORY_TYPE.category} /> : null}
        {subcategories ? (
          <CategoryList actor={actor} list={subcategories} categoryType={CATEGORY_TYPE.subcategory} />
        ) : null}
      </div>
      <CreateDialog actor={actor} />
      <DeleteAlert actor={actor} />
      <AssignDialog actor={actor} />
    </Card>
  );
}

function CategoryList({
  actor,
  list,
  categoryType,
}: {
  readonly actor: CategoriesActor;
  readonly list: CategoryListActor | SubcategoryListActor;
  readonly categoryType: CategoryType;
}) {
  // Both lists have the same shape; the subcategories' rows carry their category.
  const listRef = list as CategoryListActor;
  const rows = useSelector(listRef, (state) => state.context.rows) as readonly (Category | Subcategory)[];
  const loading = useSelector(listRef, (state) => state.hasTag('loading'));
  const failed = useSelector(listRef, (state) => state.matches('failure'));
  const empty = useSelector(listRef, (state) => state.matches('empty'));
  const page = useSelector(listRef, (state) => state.context.page);
  const total = useSelector(listRef, (state) => state.context.total);
  const rowsPerPage = useSelector(listRef, (state) => state.context.rowsPerPage);
  const canPrevious = useSelector(listRef, (state) => state.can({ type: 'list.page', page: state.context.page - 1 }));
  const canNext = useSelector(listRef, (state) => state.can({ type: 'list.page', page: state.context.page + 1 }));
  const canCreate = useSelector(actor, (state) => state.can({ type: 'create.open', categoryType }));
  const canDelete = useSelector(actor, (state) => state.can({ type: 'delete.ask', categoryType, id: 1, name: '' }));
  const canAssign = useSelector(actor, (state) =>
    state.can({ type: 'assign.open', kind: 'subcategories', id: 1, name: '' }),
  );
  const name = categoryTypeName(categoryType);
  const plural = categoryType === CATEGORY_TYPE.category ? 'Categories' : 'Subcategories';
  const testId = categoryType === CATEGORY_TYPE.category ? 'categories' : 'subcategories';
  return (
    <div className="settings-list" data-testid={`${testId}-list`}>
      <div className="settings-section-head">
        <h3 className="settings-list-title">{plural}</h3>
        <Button
          icon="add"
          text={`Add ${name.toLowerCase()}`}
          data-testid={`${testId}-add`}
          disabled={!canCreate}
          onClick={() => actor.send({ type: 'create.open', categoryType })}
        />
      </div>
      <DataTable
        label={plural}
        className="settings-table"
        columns={[
          { key: 'name', header: 'Name', kind: 'text', render: (row) => row.name },
          {
            key: 'actions',
            header: 'Actions',
            kind: 'actions',
            render: (row) => (
              <>
                <Button
                  size="small"
                  icon={categoryType === CATEGORY_TYPE.category ? 'layers' : 'barcode'}
                  text={categoryType === CATEGORY_TYPE.category ? 'Subcategories' : 'Items'}
                  aria-label={
                    categoryType === CATEGORY_TYPE.category
                      ? `Assign subcategories to ${row.name}`
                      : `Assign items to ${row.name}`
                  }
                  data-testid={`${testId}-assign`}
                  disabled={!canAssign}
                  onClick={() =>
                    actor.send({
                      type: 'assign.open',
                      kind: categoryType === CATEGORY_TYPE.category ? 'subcategories' : 'skus',
                      id: row.id,
                      name: row.name,
                    })
                  }
                />
                <RowDeleteButton
                  name={row.name}
                  testId={`${testId}-delete`}
                  disabled={!canDelete}
                  onDelete={() => actor.send({ type: 'delete.ask', categoryType, id: row.id, name: row.name })}
                />
              </>
            ),
          },
        ]}
        rows={loading ? undefined : rows}
        rowKey={(row) => row.id}
        rowAttributes={() => ({ 'data-testid': `${testId}-row` })}
        skeleton={{ label: `Loading ${name.toLowerCase()}`, testId: `${testId}-skeleton` }}
        failed={
          failed
            ? {
                message: `The ${plural.toLowerCase()} could not be read`,
                onRetry: () => list.send({ type: 'list.retry' }),
              }
            : undefined
        }
        empty={empty ? { title: `No ${plural.toLowerCase()} yet`, icon: 'tag' } : undefined}
      />
      <Pager
        testId={`${testId}-pager`}
        page={page}
        pages={lastPage(total, rowsPerPage)}
        canPrevious={canPrevious}
        canNext={canNext}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={CATEGORY_ROWS_PER_PAGE_OPTIONS}
        onPage={(next) => list.send({ type: 'list.page', page: next })}
        onRowsPerPage={(value) => list.send({ type: 'list.rowsPerPage', rowsPerPage: value })}
      />
    </div>
  );
}

function CreateDialog({ actor }: { readonly actor: CategoriesActor }) {
  const draft = useSelector(actor, (state) => state.context.create);
  const creating = useSelector(actor, (state) => state.hasTag('creating'));
  const name = categoryTypeName(draft?.categoryType ?? CATEGORY_TYPE.category);
  return (
    // An empty name may be submitted: it closes the dialog, nothing sent.
    <FormDialog
      isOpen={draft !== undefined}
      title={`Add ${name.toLowerCase()}`}
      formTestId="create-form"
      submitText="Add"
      submitTestId="create-submit"
      busy={creating}
      canSubmit
      onCancel={() => actor.send({ type: 'create.cancel' })}
      onSubmit={() => actor.send({ type: 'create.submit' })}
    >
      <FormGroup label={`${name} name`} labelFor="category-name">
        <InputGroup
          id="category-name"
          autoFocus
          maxLength={100}
          value={draft?.name ?? ''}
          disabled={creating}
          data-testid="create-name"
          onChange={(event) => actor.send({ type: 'create.change', name: event.currentTarget.value })}
        />
      </FormGroup>
    </FormDialog>
  );
}

function DeleteAlert({ actor }: { readonly actor: CategoriesActor }) {
  const target = useSelector(actor, (state) => state.context.remove);
  const confirming = useSelector(actor, (state) => state.matches({ remove: 'confirming' }));
  const working = useSelector(actor, (state) => state.hasTag('deleting'));
  const what = target ? `${categoryTypeName(target.categoryType).toLowerCase()} ${target.name}` : '';
  return (
    <ConfirmAlert
      confirming={confirming}
      working={working}
      intent="danger"
      icon="trash"
      confirmText="Delete"
      question={`Delete ${what}? Its assignments are cleared.`}
      questionTestId="delete-question"
      onConfirm={() => actor.send({ type: 'delete.confirm' })}
      onCancel={() => actor.send({ type: 'delete.cancel' })}
    />
  );
}

function AssignDialog({ actor }: { readonly actor: CategoriesActor }) {
  const draft = useSelector(actor, (state) => state.context.assign);
  const optionsLoading = useSelector(actor, (state) => state.hasTag('optionsLoading'));
  const assigning = useSelector(actor, (state) => state.hasTag('assigning'));
  const canMore = useSelector(actor, (state) => state.can({ type: 'assign.more' }));
  const canSubmit = useSelector(actor, (state) => state.can({ type: 'assign.submit' }));
  const open = draft !== undefined;
  const title =
    draft?.kind === 'skus'
      ? `Assign items to ${draft.targetName}`
      : `Assign subcategories to ${draft?.targetName ?? ''}`;
  const onScroll = (event: UIEvent<HTMLFieldSetElement>) => {
    const box = event.currentTarget;
    if (canMore && box.scrollTop + box.clientHeight >= box.scrollHeight - SCROLL_MARGIN) {
      actor.send({ type: 'assign.more' });
    }
  };
  return (
    <Dialog isOpen={open} title={title} onClose={() => actor.send({ type: 'assign.close' })}>
      <div data-testid="assign-dialog">
        <DialogBody>
          <SearchForm
            key={`${draft?.kind}-${draft?.targetId}`}
            label={draft?.kind === 'skus' ? 'Search items' : 'Search subcategories'}
            maxLength={100}
            inputTestId="assign-search"
            onSearch={(text) => actor.send({ type: 'assign.search', text })}
          />
          <fieldset
            className="settings-options"
            aria-busy={optionsLoading}
            data-testid="assign-options"
            onScroll={onScroll}
          >
            <legend className="settings-visually-hidden">{draft?.kind === 'skus' ? 'Items' : 'Subcategories'}</legend>
            {(draft?.options ?? []).map((option, index) => {
              const parts = splitMatch(option.name, draft?.search ?? '');
              return (
                <div
                  key={option.id}
                  className={index === draft?.highlighted ? 'settings-option-highlighted' : undefined}
                  data-testid="assign-option"
                  data-id={option.id}
                >
                  <Checkbox
                    checked={draft?.selected.includes(option.id) ?? false}
                    disabled={assigning}
                    onChange={() => actor.send({ type: 'assign.toggle', id: option.id })}
                    labelElement={
                      <span>
                        {parts.before}
                        {parts.match ? <mark>{parts.match}</mark> : null}
                        {parts.after}
                      </span>
                    }
                  />
                </div>
              );
            })}
            {optionsLoading ? <Spinner size={20} /> : null}
            {!optionsLoading && draft?.options.length === 0 ? <p className={Classes.TEXT_MUTED}>No Data</p> : null}
          </fieldset>
          {canMore ? (
            <Button
              variant="minimal"
              text="Load more"
              data-testid="assign-more"
              onClick={() => actor.send({ type: 'assign.more' })}
            />
          ) : null}
        </DialogBody>
        <DialogActions
          submitText="Assign"
          submitTestId="assign-submit"
          busy={assigning}
          canSubmit={canSubmit}
          lockCancel
          onCancel={() => actor.send({ type: 'assign.close' })}
          onSubmit={() => actor.send({ type: 'assign.submit' })}
        />
      </div>
    </Dialog>
  );
}
