import { afterEach, describe, expect, it } from 'vitest';
import { type Actor, assign, createActor, fromPromise, setup } from 'xstate';
import type { AuditLogEntry, AuditSortColumn } from '../../src/api/audit';
import { createApiClient } from '../../src/api/client';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import {
  type AuditLogFilters,
  auditListMachine,
  auditLogMachine,
  loadAuditLogs,
} from '../../src/machines/auditLogMachine';
import type { PagedListAnswer, PagedListQuery } from '../../src/machines/factories/pagedListMachine';
import { type Deferred, deferred } from '../support/deferred';
import { childOf } from './childOf';

/*
 * The audit log page: the filters it tells its list (the header's client and days, its own kind of row) and the
 * call the list makes of them. The list's own paths are the paged-list factory's (pagedListMachine.test.ts). The
 * page runs beside a stand-in filter header (systemId 'filterHeader') whose committed filters the test sets.
 */

type Query = PagedListQuery<AuditLogFilters, AuditSortColumn>;

const FILTERS: CommittedFilters = {
  clientId: 3,
  mallIds: [],
  outlet: undefined,
  dateRange: { start: '2026-11-01', end: '2026-11-07' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: undefined,
};

const ENTRY: AuditLogEntry = {
  id: 9,
  created_at: '2026-11-03T02:00:00.000Z',
  user_email: 'operator@demo.mall',
  action: 'update',
  entity: 'sales_target',
  entity_id: '12:2026-11',
  detail: { before: { target: 1000 }, after: { target: 1200 } },
};

/** A stand-in filter header holding `filters` as its committed filters until told others. */
function headerWith(filters: CommittedFilters) {
  return setup({
    types: {
      context: {} as { filters: CommittedFilters; outlets: []; today: string },
      events: {} as { type: 'filters.set'; filters: CommittedFilters },
    },
  }).createMachine({
    context: { filters, outlets: [], today: '2026-11-25' },
    on: { 'filters.set': { actions: assign(({ event }) => ({ filters: event.filters })) } },
  });
}
const header = headerWith(FILTERS);

let loads: { query: Query; answer: Deferred<PagedListAnswer<AuditLogEntry>> }[];

const page = auditLogMachine.provide({
  actors: {
    auditList: auditListMachine.provide({
      actors: {
        fetchPage: fromPromise<PagedListAnswer<AuditLogEntry>, Query>(({ input }) => {
          const answer = deferred<PagedListAnswer<AuditLogEntry>>();
          loads.push({ query: input, answer });
          return answer.promise;
        }),
      },
    }),
  },
});

/** The page beside a header, as the app's actor system runs them. */
function appWith(headerLogic: typeof header) {
  return setup({ actors: { header: headerLogic, page } }).createMachine({
    invoke: [
      { id: 'header', src: 'header', systemId: 'filterHeader' },
      { id: 'page', src: 'page' },
    ],
  });
}
const app = appWith(header);

let actor: Actor<typeof app>;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const pageActor = () => childOf(actor.getSnapshot(), 'page');
const filtersAsked = () => loads.map((load) => load.query.filters);

function start(): void {
  loads = [];
  actor = createActor(app);
  actor.start();
}

afterEach(() => actor?.stop());

describe('the audit log page machine', () => {
  it('tells its list the header’s client and days at once, then a new kind of row', async () => {
    start();
    await settle();
    expect(filtersAsked()).toEqual([{ clientId: 3, from: '2026-11-01', to: '2026-11-07', entity: undefined }]);
    pageActor().send({ type: 'entity.change', entity: 'gto_submission' });
    pageActor().send({ type: 'entity.change', entity: 'gto_submission' });
    await settle();
    expect(filtersAsked()).toEqual([
      { clientId: 3, from: '2026-11-01', to: '2026-11-07', entity: undefined },
      { clientId: 3, from: '2026-11-01', to: '2026-11-07', entity: 'gto_submission' },
    ]);
  });

  it('asks again when the header’s days or client change, not for other filters', async () => {
    start();
    await settle();
    const headerActor = childOf(actor.getSnapshot(), 'header');
    headerActor.send({ type: 'filters.set', filters: { ...FILTERS, mallIds: [1, 2] } });
    await settle();
    expect(loads).toHaveLength(1);
    headerActor.send({
      type: 'filters.set',
      filters: { ...FILTERS, dateRange: { start: '2026-10-01', end: '2026-10-31' } },
    });
    headerActor.send({ type: 'filters.set', filters: { ...FILTERS, clientId: 4 } });
    await settle();
    expect(filtersAsked().slice(1)).toEqual([
      { clientId: 3, from: '2026-10-01', to: '2026-10-31', entity: undefined },
      { clientId: 4, from: '2026-11-01', to: '2026-11-07', entity: undefined },
    ]);
  });

  it('waits for a client before it asks, keeping a kind of row chosen meanwhile', async () => {
    loads = [];
    const noClient = appWith(headerWith({ ...FILTERS, clientId: undefined }));
    actor = createActor(noClient);
    actor.start();
    await settle();
    expect(loads).toEqual([]);
    pageActor().send({ type: 'entity.change', entity: 'sku' });
    await settle();
    expect(loads).toEqual([]);
    childOf(actor.getSnapshot(), 'header').send({ type: 'filters.set', filters: FILTERS });
    await settle();
    expect(filtersAsked()).toEqual([{ clientId: 3, from: '2026-11-01', to: '2026-11-07', entity: 'sku' }]);
  });
});

describe('loadAuditLogs', () => {
  it('asks for the list’s page, sort, search and filters, and nothing it does not hold', async () => {
    const asked: URL[] = [];
    const client = createApiClient(
      async (request) => {
        asked.push(new URL(request.url));
        return new Response(JSON.stringify({ data: [ENTRY], total: 21 }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      },
      { baseUrl: 'http://localhost' },
    );
    setPermissionsList(['/api/auditLogs::Read']);
    try {
      const signal = new AbortController().signal;
      const base = { search: '', sortColumn: 'created_at' as const, order: 'desc' as const, page: 2, rowsPerPage: 20 };
      const filters = { clientId: 3, from: '2026-11-01', to: '2026-11-07', entity: undefined };
      expect(await loadAuditLogs({ ...base, filters }, { signal, client })).toEqual({ rows: [ENTRY], total: 21 });
      await loadAuditLogs(
        { ...base, filters: { ...filters, entity: 'sku' }, search: 'ops@', sortColumn: 'user_email', order: 'asc' },
        { signal, client },
      );
      await expect(loadAuditLogs({ ...base, rowsPerPage: 15, filters }, { signal, client })).rejects.toThrow(/15 rows/);
    } finally {
      clearSession();
    }
    expect(asked.map((url) => `${url.pathname}?${url.searchParams}`)).toEqual([
      '/api/auditLogs?client_id=3&from=2026-11-01&to=2026-11-07&page=2&rowsPerPage=20&sortColumn=created_at&orderByMethod=desc',
      '/api/auditLogs?client_id=3&from=2026-11-01&to=2026-11-07&page=2&rowsPerPage=20&sortColumn=user_email&orderByMethod=asc&entity=sku&search=ops%40',
    ]);
  });
});
