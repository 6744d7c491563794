import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor, fromCallback, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { createApiClient } from '../../src/api/client';
import type { TenantRentStatement } from '../../src/api/rentStatements';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import type { GtoSubmissionTarget } from '../../src/machines/gto/gtoSubmissionMachine';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import { isNoLease, loadRentStatement, rentStatementMachine } from '../../src/machines/tenants/rentStatementMachine';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import { NO_LEASE, tenantStatement } from '../support/rentStatements';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the tenant's Rent Statement machine with the app's api wrapper on a client whose network the
 * test answers. Client 1's outlet 12 (SGD), the header's month April 2024, then March; then the header's outlet is
 * gone (another client being chosen): the page waits again. Nothing is asked without one outlet and a month; 'No
 * lease covers this month.' is an answer (empty), never a failure; a failed call toasts and offers a retry.
 */

const ERROR_TEXT = 'Rent statement fetching error occurs. Please try again later.';
const SERVER_ERROR = { statusCode: 500, error: 'Internal Server Error', message: 'boom' };

const FILTERS: CommittedFilters = {
  clientId: 1,
  mallIds: [1],
  outlet: 12,
  dateRange: { start: '2024-04-01', end: '2024-04-07' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: '2024-04',
};
const OUTLETS: HeaderFiltersEvent['outlets'] = [
  { id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null },
];
const headerEvent = (month: string, outlet: CommittedFilters['outlet'] = 12): HeaderFiltersEvent => ({
  type: 'header.filters',
  filters: { ...FILTERS, month, outlet },
  outlets: OUTLETS,
});

let calls: PendingCall[];
let notices: Notice[];
let month: string;
let actor: Actor<typeof testMachine>;

const client = createApiClient((request) => globalThis.fetch(request), { baseUrl: 'http://tenant-rent.test' });
const testMachine = rentStatementMachine.provide({
  actors: {
    followHeaderFilters: fromCallback(() => undefined),
    lockHeader: fromCallback(() => () => undefined),
    fetchStatement: fromPromise<TenantRentStatement, GtoSubmissionTarget>(({ input, signal }) =>
      loadRentStatement(input, { signal, client }),
    ),
  },
});

const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

async function answerLast(status: number, body: unknown): Promise<void> {
  const call = calls.at(-1);
  if (!call) throw new Error('nothing was asked');
  call.settled = true;
  call.answer.resolve(jsonResponse(status, body));
  await flush();
}

type ModelEvent =
  | { type: 'header' }
  | { type: 'otherMonth' }
  | { type: 'noOutlet' }
  | { type: 'answer' }
  | { type: 'answerNoLease' }
  | { type: 'fail' }
  | { type: 'retry' };

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'rentStatementModel',
    initial: 'idle',
    states: {
      idle: { on: { header: 'loading' } },
      loading: { on: { answer: 'loaded', answerNoLease: 'empty', fail: 'failure' } },
      loaded: { on: { otherMonth: 'loading', noOutlet: 'idle' } },
      empty: { on: { otherMonth: 'loading' } },
      failure: { on: { retry: 'loading', otherMonth: 'loading' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    idle: () => {
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(actor.getSnapshot().context).toEqual({ target: undefined, answer: undefined });
      expect(calls.filter((call) => !call.settled)).toEqual([]);
    },
    loading: () => {
      expect(actor.getSnapshot().hasTag('loading')).toBe(true);
      const call = calls.at(-1);
      expect(`${call?.url.pathname}?${call?.url.searchParams}`).toBe(
        `/api/tenant/rentStatement?client_id=1&outlet_id=12&month=${month}`,
      );
      expect(actor.getSnapshot().context.answer).toBeUndefined();
    },
    loaded: () => {
      expect(actor.getSnapshot().matches('loaded')).toBe(true);
      expect(actor.getSnapshot().context.answer).toEqual(tenantStatement());
    },
    empty: () => {
      expect(actor.getSnapshot().matches('empty')).toBe(true);
      expect(actor.getSnapshot().context.answer).toEqual(NO_LEASE);
      expect(notices).toEqual([]);
    },
    failure: () => {
      expect(actor.getSnapshot().matches('failure')).toBe(true);
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: ERROR_TEXT, timeout: 5000 });
      expect(actor.getSnapshot().can({ type: 'statement.retry' })).toBe(true);
    },
  },
  events: {
    header: async () => {
      const asked = calls.length;
      actor.send(headerEvent(month));
      // The same outlet and month again ask nothing more.
      actor.send(headerEvent(month));
      await flush();
      expect(calls).toHaveLength(asked + 1);
    },
    otherMonth: async () => {
      month = month === '2024-04' ? '2024-03' : '2024-04';
      actor.send(headerEvent(month));
      await flush();
    },
    noOutlet: async () => {
      const event = headerEvent(month);
      actor.send({ ...event, filters: { ...event.filters, outlet: undefined } });
      await flush();
    },
    answer: () => answerLast(200, tenantStatement()),
    answerNoLease: () => answerLast(200, NO_LEASE),
    fail: () => answerLast(500, SERVER_ERROR),
    retry: async () => {
      actor.send({ type: 'statement.retry' });
      await flush();
    },
  },
};

describe('rentStatementMachine (model)', () => {
  beforeEach(() => {
    calls = installPendingFetch();
    setPermissionsList(['/api/tenant/rentStatement::Read']);
    notices = [];
    month = '2024-04';
    actor = createActor(testMachine);
    actor.on('notify', (notice) => notices.push(notice));
    actor.start();
  });
  afterEach(() => {
    actor.stop();
    vi.unstubAllGlobals();
    clearSession();
  });
  describeModelCoverage(model, params, {
    states: ['idle', 'loading', 'loaded', 'empty', 'failure'],
    transitions: 9,
  });
});

describe('rentStatementMachine details', () => {
  beforeEach(() => {
    calls = installPendingFetch();
    setPermissionsList(['/api/tenant/rentStatement::Read']);
    notices = [];
    actor = createActor(testMachine);
    actor.start();
  });
  afterEach(() => {
    actor.stop();
    vi.unstubAllGlobals();
    clearSession();
  });

  it('asks nothing for All Outlets or an outlet the header does not know', async () => {
    actor.send(headerEvent('2024-04', 'all'));
    actor.send(headerEvent('2024-04', 99));
    await flush();
    expect(calls).toEqual([]);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('takes an answer without a lease, or without a statement, as no lease', () => {
    expect(isNoLease(NO_LEASE)).toBe(true);
    const { statement: _statement, ...withoutStatement } = tenantStatement();
    expect(isNoLease(withoutStatement)).toBe(true);
    expect(isNoLease(tenantStatement())).toBe(false);
  });
});
