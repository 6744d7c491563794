import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type ActorRefFrom,
  createActor,
  fromCallback,
  fromPromise,
  type SnapshotFrom,
  setup,
  spawnChild,
  stopChild,
} from 'xstate';
import { createApiClient } from '../../src/api/client';
import { type GtoSubmission, type GtoSubmissionRequest, saveGtoSubmission } from '../../src/api/gto';
import { clearSession, setCsrfToken, setPermissionsList } from '../../src/api/session';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import { checkDraft, draftOf, GTO_INVALID_DRAFT_MESSAGE, type GtoDraft } from '../../src/domain/gto';
import type { Notice } from '../../src/domain/messages';
import {
  type GtoSubmissionTarget,
  gtoSubmissionMachine,
  type LoadedMonth,
  loadGtoMonth,
  type SaveInput,
} from '../../src/machines/gto/gtoSubmissionMachine';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import { installPendingFetch, jsonResponse, type PendingCall } from '../support/pendingFetch';
import { childOf } from './childOf';
import { describeModelCoverage } from './modelCoverage';

/*
 * Model-based test of the GTO submission machine (§7, §8) with the app's one api client: the network is a fetch
 * handler on globalThis whose answers the test gives (each call waits until the test settles it). Outlet 7 of
 * client 1, October 2026, today 25 November 2026: every day of October can be declared. The header's filters are
 * sent as the header would (`header.filters`).
 */

const TODAY = '2026-11-25';
const MONTH = '2026-10';
const SUBMITTED_AT = '2026-11-03T10:15:00.000Z';
const CORRECTED_AT = '2026-11-05T09:00:00.000Z';
const SERVER_REFUSAL = 'gtoSubmissionData/0/date must not be after today (2026-10-30).';
const LOAD_FAILED_TEXT = 'GTO submission fetching error occurs. Please try again later.';

let calls: PendingCall[];

function installNetwork(): void {
  calls = installPendingFetch();
}

const json = jsonResponse;

function lastCall(): PendingCall {
  const call = calls.at(-1);
  if (!call) throw new Error('no call');
  return call;
}

function month(overrides: Partial<GtoSubmission> = {}): GtoSubmission {
  return {
    outlet_id: 7,
    searchedMonth: MONTH,
    gtoSubmissionData: [],
    total: 0,
    submitted: false,
    submitted_at: null,
    submitted_by: null,
    updated_at: null,
    remarks: null,
    open: true,
    currency: 'SGD',
    today: TODAY,
    ...overrides,
  };
}

function filters(outlet: number | undefined): CommittedFilters {
  return {
    clientId: 1,
    mallIds: [1],
    outlet,
    dateRange: { start: '2026-11-19', end: '2026-11-25' },
    hours: { from: 0, to: 23 },
    timeRange: 'daily',
    metric: 'gmv',
    month: MONTH,
  };
}

const OUTLETS = [{ id: 7, name: 'Kopi Corner', type: 1 as const, currency: 'SGD', mall_id: 1, outlet_code: null }];

const headerEvent = (outlet: number | undefined): HeaderFiltersEvent => ({
  type: 'header.filters',
  filters: filters(outlet),
  outlets: OUTLETS,
  today: TODAY,
});

/** The app's api wrappers on a client whose network is the handler above (an origin of its own outside a browser). */
const client = createApiClient((request) => globalThis.fetch(request), { baseUrl: 'http://gto.test' });

const quietMachine = gtoSubmissionMachine.provide({
  actors: {
    followHeaderFilters: fromCallback(() => () => undefined),
    fetchSubmission: fromPromise<LoadedMonth, GtoSubmissionTarget>(({ input, signal }) =>
      loadGtoMonth(input, { signal, client }),
    ),
    saveSubmission: fromPromise<GtoSubmission, SaveInput>(({ input, signal }) =>
      saveGtoSubmission(input.request, input.correction, { signal, client }),
    ),
  },
});

let actor: ActorRefFrom<typeof quietMachine>;
let notices: Notice[];

function start(): void {
  installNetwork();
  setPermissionsList(['*::*']);
  setCsrfToken('csrf-test');
  notices = [];
  actor = createActor(quietMachine);
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
}

afterEach(() => {
  actor.stop();
  vi.unstubAllGlobals();
  clearSession();
});

const snapshot = () => actor.getSnapshot();
const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
};

/* ---------------------------------------------------------------- the model */

type ModelEvent = {
  type:
    | 'chooseOutlet'
    | 'clearOutlet'
    | 'answerNew'
    | 'answerClosed'
    | 'failLoad'
    | 'retry'
    | 'typeDay'
    | 'typeInvalid'
    | 'cancel'
    | 'save'
    | 'answerSave'
    | 'refuseSave';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'gtoSubmissionModel',
    initial: 'idle',
    states: {
      idle: { on: { chooseOutlet: 'loading' } },
      loading: { on: { answerNew: 'clean', answerClosed: 'closed', failLoad: 'failure' } },
      failure: { on: { retry: 'loading' } },
      /** A month not open: nothing can be typed. */
      closed: { on: { clearOutlet: 'idle' } },
      clean: { on: { typeDay: 'dirty', typeInvalid: 'invalid', clearOutlet: 'idle' } },
      dirty: { on: { typeDay: 'dirty', typeInvalid: 'invalid', cancel: 'clean', save: 'saving' } },
      /** Dirty, and an amount does not parse. */
      invalid: { on: { typeDay: 'dirty', cancel: 'clean' } },
      saving: { on: { answerSave: 'saved', refuseSave: 'failed' } },
      saved: { on: { typeDay: 'dirty', typeInvalid: 'invalid' } },
      failed: { on: { save: 'saving', typeDay: 'dirty', typeInvalid: 'invalid', cancel: 'clean' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

/** The month as the server keeps it, and the draft as the test typed it. */
let stored: GtoSubmission;
let draft: GtoDraft;
let typed: number;
const DAYS = Array.from({ length: 31 }, (_, index) => `${MONTH}-${String(index + 1).padStart(2, '0')}`);

const expectDraft = () => expect(snapshot().context.draft).toEqual(draft);
const canType = () => snapshot().can({ type: 'gto.changeDay', date: `${MONTH}-01`, value: '1' });

function type(date: string, value: string): void {
  draft = { ...draft, days: { ...draft.days, [date]: value } };
  actor.send({ type: 'gto.changeDay', date, value });
}

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    idle: () => {
      expect(snapshot().matches('idle')).toBe(true);
      expect(snapshot().context.submission).toBeUndefined();
      expect(canType()).toBe(false);
      expect(snapshot().can({ type: 'gto.save' })).toBe(false);
    },
    loading: () => {
      expect(snapshot().matches('loading')).toBe(true);
      expect(snapshot().hasTag('loading')).toBe(true);
      const call = lastCall();
      expect(call.method).toBe('GET');
      expect(call.url.pathname).toBe('/api/gtoReport/submissionData');
      expect(Object.fromEntries(call.url.searchParams)).toEqual({
        client_id: '1',
        outlet_id: '7',
        searchedMonth: MONTH,
      });
      expect(canType()).toBe(false);
    },
    failure: () => {
      expect(snapshot().matches('failure')).toBe(true);
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: LOAD_FAILED_TEXT, timeout: 5000 });
      expect(snapshot().can({ type: 'gto.retry' })).toBe(true);
    },
    closed: () => {
      expect(snapshot().matches({ editing: 'clean' })).toBe(true);
      expect(snapshot().context.submission?.open).toBe(false);
      expect(snapshot().context.days).toEqual(DAYS);
      expect(canType()).toBe(false);
      expect(snapshot().can({ type: 'gto.changeRemarks', value: 'x' })).toBe(false);
      expect(snapshot().can({ type: 'gto.save' })).toBe(false);
    },
    clean: () => {
      expect(snapshot().matches({ editing: 'clean' })).toBe(true);
      expect(snapshot().hasTag('dirty')).toBe(false);
      expect(draft).toEqual(draftOf(stored, DAYS));
      expectDraft();
      expect(canType()).toBe(true);
      expect(snapshot().can({ type: 'gto.save' })).toBe(false);
      expect(snapshot().can({ type: 'gto.cancel' })).toBe(false);
    },
    dirty: () => {
      expect(snapshot().matches({ editing: 'dirty' })).toBe(true);
      expect(snapshot().hasTag('dirty')).toBe(true);
      expectDraft();
      expect(snapshot().can({ type: 'gto.save' })).toBe(true);
      expect(snapshot().can({ type: 'gto.cancel' })).toBe(true);
    },
    invalid: () => {
      expect(snapshot().matches({ editing: 'dirty' })).toBe(true);
      expectDraft();
      expect(checkDraft(snapshot().context.draft, DAYS).problem).toBe(GTO_INVALID_DRAFT_MESSAGE);
      expect(snapshot().can({ type: 'gto.save' })).toBe(false);
      expect(snapshot().can({ type: 'gto.cancel' })).toBe(true);
    },
    saving: () => {
      expect(snapshot().matches('saving')).toBe(true);
      expect(snapshot().hasTag('saving')).toBe(true);
      expect(snapshot().hasTag('dirty')).toBe(true);
      const call = lastCall();
      // A first submission is a POST, a correction of a submitted month a PUT.
      expect(call.method).toBe(stored.submitted ? 'PUT' : 'POST');
      expect(call.url.pathname).toBe('/api/gtoReport/submissionData');
      const check = checkDraft(draft, DAYS);
      expect(call.body).toEqual({
        client_id: 1,
        outlet_id: 7,
        searchedMonth: MONTH,
        gtoSubmissionData: [...check.entries],
      } satisfies GtoSubmissionRequest);
      expect(canType()).toBe(false);
      expect(snapshot().can({ type: 'gto.save' })).toBe(false);
    },
    saved: () => {
      expect(snapshot().matches('saved')).toBe(true);
      expect(snapshot().hasTag('dirty')).toBe(false);
      expect(snapshot().context.submission).toEqual(stored);
      expect(draft).toEqual(draftOf(stored, DAYS));
      expectDraft();
      const corrected = stored.updated_at !== stored.submitted_at;
      expect(notices.at(-1)).toEqual({
        type: 'notify',
        intent: 'success',
        message: corrected ? 'GTO for October 2026 corrected.' : 'GTO for October 2026 submitted.',
        timeout: 5000,
      });
      expect(snapshot().can({ type: 'gto.save' })).toBe(false);
    },
    failed: () => {
      expect(snapshot().matches('failed')).toBe(true);
      expect(snapshot().hasTag('dirty')).toBe(true);
      // The draft stays and the server's message surfaces.
      expectDraft();
      expect(snapshot().context.saveError).toBe(SERVER_REFUSAL);
      expect(notices.at(-1)).toEqual({ type: 'notify', intent: 'danger', message: SERVER_REFUSAL, timeout: 5000 });
      expect(snapshot().can({ type: 'gto.save' })).toBe(true);
    },
  },
  events: {
    chooseOutlet: async () => {
      actor.send(headerEvent(7));
      await flush();
    },
    clearOutlet: () => actor.send(headerEvent(undefined)),
    answerNew: async () => {
      stored = month();
      draft = draftOf(stored, DAYS);
      lastCall().answer.resolve(json(200, stored));
      await flush();
    },
    answerClosed: async () => {
      stored = month({ open: false });
      draft = draftOf(stored, DAYS);
      lastCall().answer.resolve(json(200, stored));
      await flush();
    },
    failLoad: async () => {
      lastCall().answer.resolve(json(500, { statusCode: 500, error: 'Internal Server Error', message: 'boom' }));
      await flush();
    },
    retry: async () => {
      actor.send({ type: 'gto.retry' });
      await flush();
    },
    typeDay: () => {
      typed += 1;
      type(`${MONTH}-01`, `$${typed},000.50`);
      type(`${MONTH}-02`, String(typed));
    },
    typeInvalid: () => type(`${MONTH}-02`, '12.345'),
    cancel: () => {
      draft = draftOf(stored, DAYS);
      actor.send({ type: 'gto.cancel' });
    },
    save: async () => {
      actor.send({ type: 'gto.save' });
      await flush();
    },
    answerSave: async () => {
      const call = lastCall();
      const body = call.body as GtoSubmissionRequest;
      const correction = call.method === 'PUT';
      stored = month({
        gtoSubmissionData: body.gtoSubmissionData,
        total: checkDraft(draft, DAYS).total,
        submitted: true,
        submitted_at: SUBMITTED_AT,
        updated_at: correction ? CORRECTED_AT : SUBMITTED_AT,
        submitted_by: 'tenant@demo.mall',
      });
      draft = draftOf(stored, DAYS);
      call.answer.resolve(json(200, stored));
      await flush();
    },
    refuseSave: async () => {
      lastCall().answer.resolve(json(400, { statusCode: 400, error: 'Bad Request', message: SERVER_REFUSAL }));
      await flush();
    },
  },
};

describe('gtoSubmissionMachine (model)', () => {
  beforeEach(() => {
    typed = 0;
    start();
  });
  describeModelCoverage(model, params, {
    states: ['idle', 'loading', 'failure', 'closed', 'clean', 'dirty', 'invalid', 'saving', 'saved', 'failed'],
    transitions: 23,
  });
});

/* ---------------------------------------------------------------- details */

async function loaded(answer: GtoSubmission = month()): Promise<void> {
  actor.send(headerEvent(7));
  await flush();
  lastCall().answer.resolve(json(200, answer));
  await flush();
  expect(snapshot().matches({ editing: 'clean' })).toBe(true);
}

describe('gtoSubmissionMachine details', () => {
  beforeEach(() => start());

  it("prefills the declared days, shows days up to the outlet's today only, and keeps the remarks", async () => {
    actor.send({ ...headerEvent(7), filters: { ...filters(7), month: '2026-11' } });
    await flush();
    lastCall().answer.resolve(
      json(
        200,
        month({
          searchedMonth: '2026-11',
          today: '2026-11-03',
          gtoSubmissionData: [{ date: '2026-11-02', gto: 12.5 }],
          total: 12.5,
          submitted: true,
          submitted_at: SUBMITTED_AT,
          updated_at: SUBMITTED_AT,
          remarks: 'Excludes GST',
        }),
      ),
    );
    await flush();
    expect(snapshot().context.days).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
    expect(snapshot().context.draft).toEqual({
      days: { '2026-11-01': '', '2026-11-02': '12.50', '2026-11-03': '' },
      remarks: 'Excludes GST',
    });
  });

  it("takes the outlet's today from the server's answer, not the header's", async () => {
    actor.send({ ...headerEvent(7), filters: { ...filters(7), month: '2026-11' }, today: '2026-11-25' });
    await flush();
    // The outlet's mall is already on the 26th.
    lastCall().answer.resolve(json(200, month({ searchedMonth: '2026-11', today: '2026-11-26' })));
    await flush();
    expect(snapshot().context.today).toBe('2026-11-26');
    expect(snapshot().context.days.at(-1)).toBe('2026-11-26');
  });

  it('does not ask for an outlet the header does not know, nor again for the same outlet and month', async () => {
    actor.send({ ...headerEvent(99) });
    await flush();
    expect(calls).toEqual([]);
    expect(snapshot().matches('idle')).toBe(true);
    await loaded();
    actor.send({ ...headerEvent(7), today: '2026-11-26' });
    await flush();
    expect(calls).toHaveLength(1);
  });

  it('saves the remarks cleaned, and a draft typed back to the loaded value cannot be saved', async () => {
    await loaded();
    actor.send({ type: 'gto.changeDay', date: `${MONTH}-03`, value: '5' });
    actor.send({ type: 'gto.changeDay', date: `${MONTH}-03`, value: '' });
    expect(snapshot().matches({ editing: 'dirty' })).toBe(true);
    expect(snapshot().can({ type: 'gto.save' })).toBe(false);
    actor.send({ type: 'gto.changeDay', date: `${MONTH}-03`, value: '5' });
    actor.send({ type: 'gto.changeRemarks', value: '  Includes\tonline orders ' });
    actor.send({ type: 'gto.save' });
    await flush();
    expect(lastCall().body).toEqual({
      client_id: 1,
      outlet_id: 7,
      searchedMonth: MONTH,
      gtoSubmissionData: [{ date: `${MONTH}-03`, gto: 5 }],
      remarks: 'Includes online orders',
    });
  });

  it("corrects a submitted month with PUT and toasts 'GTO for October 2026 corrected.'", async () => {
    await loaded(
      month({
        gtoSubmissionData: [{ date: `${MONTH}-01`, gto: 10 }],
        total: 10,
        submitted: true,
        submitted_at: SUBMITTED_AT,
        updated_at: SUBMITTED_AT,
        submitted_by: 'tenant@demo.mall',
      }),
    );
    actor.send({ type: 'gto.changeDay', date: `${MONTH}-01`, value: '12' });
    actor.send({ type: 'gto.save' });
    await flush();
    expect(lastCall().method).toBe('PUT');
    lastCall().answer.resolve(
      json(
        200,
        month({
          gtoSubmissionData: [{ date: `${MONTH}-01`, gto: 12 }],
          total: 12,
          submitted: true,
          submitted_at: SUBMITTED_AT,
          updated_at: CORRECTED_AT,
          submitted_by: 'tenant@demo.mall',
        }),
      ),
    );
    await flush();
    expect(snapshot().matches('saved')).toBe(true);
    expect(notices.map((notice) => notice.message)).toEqual(['GTO for October 2026 corrected.']);
    expect(snapshot().context.submission?.updated_at).toBe(CORRECTED_AT);
  });

  it('ignores a day outside the month shown', async () => {
    await loaded();
    actor.send({ type: 'gto.changeDay', date: '2026-11-01', value: '5' });
    expect(snapshot().context.draft.days['2026-11-01']).toBeUndefined();
  });

  it('shows the default error text when a failed save carries no server message', async () => {
    await loaded();
    actor.send({ type: 'gto.changeDay', date: `${MONTH}-03`, value: '5' });
    actor.send({ type: 'gto.save' });
    await flush();
    lastCall().answer.reject(new TypeError('Failed to fetch'));
    await flush();
    expect(snapshot().matches('failed')).toBe(true);
    expect(snapshot().context.saveError).toBe('Error occurs. Please try again later.');
  });

  it('holds the unsaved changes at the navigation guard and disables the header while the draft is not saved', async () => {
    actor.stop();
    const guardTold: boolean[] = [];
    const headerTold: string[] = [];
    const guard = fromCallback<{ type: 'page.unsavedChanges'; unsaved: boolean }>(({ receive }) => {
      receive((event) => guardTold.push(event.unsaved));
    });
    const header = fromCallback<{ type: string }>(({ receive }) => {
      receive((event) => headerTold.push(event.type));
    });
    const app = createActor(
      setup({
        types: { children: {} as { guard: 'guard'; header: 'header'; page: 'page' } },
        actors: { guard, header, page: quietMachine },
      }).createMachine({
        invoke: [
          { id: 'guard', systemId: 'navigation', src: 'guard' },
          { id: 'header', systemId: 'filterHeader', src: 'header' },
        ],
        entry: spawnChild('page', { id: 'page' }),
        on: { close: { actions: stopChild('page') } },
      }),
    ).start();
    actor = childOf(app.getSnapshot(), 'page');
    await loaded();
    expect(headerTold).toEqual(['page.loading', 'page.loaded']);
    actor.send({ type: 'gto.changeDay', date: `${MONTH}-03`, value: '5' });
    expect(guardTold).toEqual([true]);
    expect(headerTold.at(-1)).toBe('page.loading');
    actor.send({ type: 'gto.cancel' });
    expect(guardTold).toEqual([true, false]);
    expect(headerTold.at(-1)).toBe('page.loaded');
    actor.send({ type: 'gto.changeDay', date: `${MONTH}-03`, value: '5' });
    app.send({ type: 'close' });
    expect(guardTold.at(-1)).toBe(false);
    expect(headerTold.filter((type) => type === 'page.loading')).toHaveLength(
      headerTold.filter((type) => type === 'page.loaded').length,
    );
    app.stop();
    start();
  });
});
