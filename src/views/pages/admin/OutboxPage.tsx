import { Button, Callout, Card, NonIdealState } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { type KeyboardEvent, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { type OutboxMail, type OutboxSortColumn, outboxAttachmentHref } from '../../../api/admin';
import { formatDateTime } from '../../../domain/format';
import { lastPage } from '../../../domain/paging';
import { formatBytes } from '../../../domain/receipts';
import { OUTBOX_INPUT, OUTBOX_ROWS_PER_PAGE_OPTIONS, outboxMachine } from '../../../machines/outboxMachine';
import { type DataColumn, DataTable } from '../../common/DataTable';
import { useNoticeToasts } from '../../common/Notifications';
import { Pager } from '../../common/Pager';
import { SearchForm } from '../../common/SearchForm';
import { usePageActor } from '../../common/usePageActor';
import { usePagedListView } from '../../common/usePagedListView';
import { PageTitle } from '../../filters/PageTitle';
import type { PageProps } from '../pageProps';
import './admin.css';

type OutboxActor = ActorRefFrom<typeof outboxMachine>;

const COLUMNS: readonly DataColumn<OutboxMail, OutboxSortColumn>[] = [
  {
    key: 'sent',
    header: 'Sent',
    kind: 'datetime',
    sort: 'created_at',
    render: (mail) => formatDateTime(mail.created_at),
  },
  { key: 'to', header: 'To', kind: 'text', sort: 'recipient', render: (mail) => mail.recipient },
  { key: 'subject', header: 'Subject', kind: 'text', sort: 'subject', render: (mail) => mail.subject },
];

/** Skeleton rows while the first page loads (later loads keep the number of rows shown). */
const FIRST_SKELETON_ROWS = 5;
/** The longest search the call takes (the contract's maxLength). */
const SEARCH_MAX_LENGTH = 200;

/**
 * The mails kept in the local outbox, for finishing sign-in flows on a machine without an SMTP server: a paged,
 * sortable, searchable table; a row opens the mail's text under it.
 */
export function OutboxPage({ title }: PageProps) {
  const actor = usePageActor(outboxMachine, OUTBOX_INPUT);
  useNoticeToasts(actor);
  const busy = useSelector(actor, (state) => state === undefined || state.hasTag('loading'));
  return (
    <section data-testid="outbox-page">
      <div className="page-title-row">
        <PageTitle title={title} />
        <Button icon="refresh" text="Refresh" loading={busy} onClick={() => actor?.send({ type: 'list.refresh' })} />
      </div>
      <Callout intent="primary" icon="envelope">
        Without an SMTP server (SMTP_URL), mails are kept here instead of being sent: one-time codes, password-reset
        links and invitations.
      </Callout>
      {actor ? <OutboxList actor={actor} /> : <OutboxTable rows={undefined} skeletonRows={FIRST_SKELETON_ROWS} />}
    </section>
  );
}

function OutboxList({ actor }: { readonly actor: OutboxActor }) {
  const send = actor.send;
  const { loading, empty, failed, rows, search, sortColumn, order, page, total, rowsPerPage, canPrevious, canNext } =
    usePagedListView(actor);
  return (
    <Card className="outbox-card">
      <div className="outbox-toolbar">
        <SearchForm
          label="Search recipient or subject"
          maxLength={SEARCH_MAX_LENGTH}
          onSearch={(text) => send({ type: 'list.search', text })}
          inputTestId="outbox-search"
          buttonTestId="outbox-search-button"
        />
        <span data-testid="outbox-total">{loading ? '' : `${total} ${total === 1 ? 'mail' : 'mails'}`}</span>
      </div>
      {failed ? (
        <NonIdealState icon="error" title="The outbox could not be read" description="Refresh to try again." />
      ) : empty ? (
        search === '' ? (
          <NonIdealState icon="inbox" title="No mail yet" />
        ) : (
          <NonIdealState icon="search" title="No mail matches the search" description={`“${search}”`} />
        )
      ) : (
        <>
          <OutboxTable
            rows={loading ? undefined : rows}
            skeletonRows={rows.length > 0 ? rows.length : Math.min(FIRST_SKELETON_ROWS, rowsPerPage)}
            sortColumn={sortColumn}
            order={order}
            onSort={(column) => send({ type: 'list.sort', column })}
          />
          <Pager
            testId="outbox-pager"
            page={page}
            pages={lastPage(total, rowsPerPage)}
            canPrevious={canPrevious}
            canNext={canNext}
            rowsPerPage={rowsPerPage}
            rowsPerPageOptions={OUTBOX_ROWS_PER_PAGE_OPTIONS}
            onPage={(next) => send({ type: 'list.page', page: next })}
            onRowsPerPage={(value) => send({ type: 'list.rowsPerPage', rowsPerPage: value })}
          />
        </>
      )}
    </Card>
  );
}

/** A mail's files (a report subscription's PDF and workbook) as download links, with their sizes. */
function MailAttachments({ mail }: { mail: OutboxMail }) {
  if (mail.attachments.length === 0) return null;
  return (
    <ul className="outbox-attachments" aria-label="Attachments" data-testid="outbox-attachments">
      {mail.attachments.map((file) => (
        <li key={file.position}>
          <a
            href={outboxAttachmentHref(mail.id, file.position)}
            download={file.filename}
            data-testid="outbox-attachment"
            onClick={(event) => event.stopPropagation()}
          >
            {file.filename}
          </a>{' '}
          <span className="outbox-attachment-size">({formatBytes(file.size)})</span>
        </li>
      ))}
    </ul>
  );
}

interface OutboxTableProps {
  /** Undefined while loading: skeleton rows. */
  readonly rows: readonly OutboxMail[] | undefined;
  readonly skeletonRows: number;
  readonly sortColumn?: OutboxSortColumn;
  readonly order?: 'asc' | 'desc';
  /** Undefined before the list has started: the headers are not buttons yet. */
  readonly onSort?: (column: OutboxSortColumn) => void;
}

function OutboxTable({ rows, skeletonRows, sortColumn, order, onSort }: OutboxTableProps) {
  const [open, setOpen] = useState<number | undefined>(undefined);
  const toggle = (id: number) => setOpen((current) => (current === id ? undefined : id));
  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, id: number) => {
    if (event.target !== event.currentTarget || (event.key !== 'Enter' && event.key !== ' ')) return;
    event.preventDefault();
    toggle(id);
  };
  return (
    <DataTable
      label="Outbox"
      className="outbox-table"
      columns={COLUMNS}
      rows={rows}
      rowKey={(mail) => mail.id}
      interactive
      rowAttributes={(mail) => ({
        'data-testid': 'outbox-row',
        tabIndex: 0,
        'aria-expanded': open === mail.id,
        onClick: () => toggle(mail.id),
        onKeyDown: (event) => onRowKey(event, mail.id),
      })}
      detail={(mail) =>
        open === mail.id ? (
          <>
            <pre className="outbox-mail-text">{mail.text}</pre>
            <MailAttachments mail={mail} />
          </>
        ) : undefined
      }
      sortColumn={sortColumn}
      order={order}
      onSort={onSort}
      testIdPrefix="outbox"
      skeleton={{ label: 'Loading mail', testId: 'outbox-skeleton-row', rows: skeletonRows }}
    />
  );
}
