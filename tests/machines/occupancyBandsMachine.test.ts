import { createTestModel, type TestParam } from '@xstate/test';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, type ActorRefFrom, createActor, fromCallback, type SnapshotFrom, setup } from 'xstate';
import type { OccupancyBand } from '../../src/api/occupancyBands';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import {
  BAND_MESSAGES,
  type BandChange,
  bandRowProblem,
  bandsDraftOf,
  changedBands,
  type OccupancyBandsDraft,
  refusalAtRow,
  withBandReset,
  withBandText,
} from '../../src/domain/occupancyBands';
import type { HeaderFiltersEvent } from '../../src/machines/headerLink';
import {
  bandsRefusalOf,
  type createOccupancyBandsMachine,
} from '../../src/machines/tenantConnect/occupancyBandsMachine';
import {
  createRentStatementsMachine,
  createRentStatementsPageMachine,
} from '../../src/machines/tenantConnect/rentStatementsMachine';
import { BANDS, CLOSED_REPORT } from '../support/rentStatements';
import { childOf } from './childOf';
import { describeModelCoverage } from './modelCoverage';
import { errorBody, fakeNetwork, flush } from './settingsNetwork';

/*
 * Model-based test of the Rent Statements page's occupancy cost bands dialog: the page machine (its report of client
 * 3's malls 1 and 2, March 2024, and the bands editor) over a network the test answers. Client 3's bands: F&B the
 * published 6-10 %, Fashion its own 12-16 %, Services none. The test types F&B's high end (11, 12, ...), resets
 * Fashion to the published band, or types F&B's low end above its high end. A save sends only the bands changed,
 * 'Save Successfully.' / 'Save Failed.' (§8); a refusal (400 naming bands.0.low_percent) is kept at the band sent
 * first; a save closes the dialog and the report reads its statements again.
 */

const BANDS_PATH = '/api/occupancyBands';
const STATEMENTS_PATH = '/api/rentStatements';
const PERMISSIONS = [`${STATEMENTS_PATH}::Read`, `${BANDS_PATH}::Read`, `${BANDS_PATH}::Update`];
const REFUSED = 'bands.0.low_percent: The low end of a band must be at most its high end.';

const net = fakeNetwork();
const report = createRentStatementsMachine(net.client).provide({
  actors: {
    followHeaderFilters: fromCallback(() => undefined),
    lockHeader: fromCallback(() => () => undefined),
  },
});
const pageMachine = createRentStatementsPageMachine(net.client).provide({ actors: { report } });

type BandsRef = ActorRefFrom<ReturnType<typeof createOccupancyBandsMachine>>;

function headerEvent(clientId: number, mallIds: number[]): HeaderFiltersEvent {
  const filters: CommittedFilters = {
    clientId,
    mallIds,
    outlet: undefined,
    dateRange: { start: '2024-03-09', end: '2024-03-15' },
    hours: { from: 0, to: 23 },
    timeRange: 'daily',
    metric: 'gmv',
    month: '2024-03',
  };
  return { type: 'header.filters', filters, outlets: [], today: '2024-03-15' };
}

let actor: Actor<typeof pageMachine>;
let notices: Notice[];
let watched: WeakSet<object>;
/** F&B's ends as typed, and whether Fashion is reset to the published band. */
let fnb: { low: string; high: string };
let fashionReset: boolean;
let typings: number;

const page = () => actor.getSnapshot();
const reportActor = () => childOf(page(), 'report');
const panel = () => reportActor().getSnapshot().context.panels.statements;

function bands(): BandsRef {
  const child = page().children.bands;
  if (!child) throw new Error('no bands dialog');
  if (!watched.has(child)) {
    watched.add(child);
    child.on('notify', (notice) => notices.push(notice));
  }
  return child;
}

const draft = (): OccupancyBandsDraft => {
  const value = bands().getSnapshot().context.draft;
  if (!value) throw new Error('no draft');
  return value;
};

/** The bands a save sends, by what the test typed. */
function expectedChanges(): BandChange[] {
  return [
    ...(fnb.high === '10' && fnb.low === '6'
      ? []
      : [{ category: 'F&B', low_percent: Number(fnb.low), high_percent: Number(fnb.high) }]),
    ...(fashionReset ? [{ category: 'Fashion', low_percent: null, high_percent: null }] : []),
  ];
}

/** The page with the report of March 2024 loaded and no dialog. */
async function start(permissions: readonly string[] = PERMISSIONS): Promise<void> {
  net.reset();
  setPermissionsList(permissions);
  notices = [];
  watched = new WeakSet();
  fnb = { low: '6', high: '10' };
  fashionReset = false;
  typings = 0;
  actor = createActor(pageMachine).start();
  reportActor().send(headerEvent(3, [1, 2]));
  await net.answer('GET', STATEMENTS_PATH, 200, CLOSED_REPORT);
}

afterEach(() => actor.stop());
afterAll(() => clearSession());

type ModelEvent = {
  type:
    | 'open'
    | 'loadBands'
    | 'failLoad'
    | 'retry'
    | 'close'
    | 'change'
    | 'reset'
    | 'invalidate'
    | 'cancel'
    | 'save'
    | 'resolveSave'
    | 'rejectSave'
    | 'refuseSave'
    | 'answerReport';
};

const model = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'occupancyBandsModel',
    initial: 'closed',
    states: {
      closed: { on: { open: 'loading' } },
      loading: { on: { loadBands: 'clean', failLoad: 'loadFailed', close: 'closed' } },
      loadFailed: { on: { retry: 'loading', close: 'closed' } },
      clean: { on: { change: 'dirty', reset: 'dirty', close: 'closed' } },
      dirty: { on: { save: 'saving', cancel: 'clean', invalidate: 'invalid', close: 'closed' } },
      /** F&B's low end above its high end: said at the field, no save. */
      invalid: { on: { change: 'dirty', close: 'closed' } },
      saving: { on: { resolveSave: 'reloading', rejectSave: 'failed', refuseSave: 'refused' } },
      failed: { on: { save: 'saving', cancel: 'clean', change: 'dirty' } },
      refused: { on: { change: 'dirty', cancel: 'clean' } },
      /** Saved: the dialog closed, the report reads its statements again. */
      reloading: { on: { answerReport: 'closed' } },
    },
  }),
);

type ModelSnapshot = SnapshotFrom<typeof model.logic>;

const lastNotice = () => notices.at(-1);
const notice = (intent: 'success' | 'danger', message: string) => ({ type: 'notify', intent, message, timeout: 5000 });

const params: TestParam<ModelSnapshot, ModelEvent> = {
  states: {
    closed: () => {
      expect(page().children.bands).toBeUndefined();
      expect(page().context.bandsOpen).toBe(false);
      expect(page().can({ type: 'bands.open' })).toBe(true);
      expect(panel()).toEqual({ status: 'loaded', data: CLOSED_REPORT });
      expect(net.open()).toEqual([]);
    },
    loading: async () => {
      expect(bands().getSnapshot().hasTag('loading')).toBe(true);
      expect(page().can({ type: 'bands.open' })).toBe(false);
      const request = await net.pending('GET', BANDS_PATH);
      expect(request.query.toString()).toBe('client_id=3');
    },
    loadFailed: () => {
      expect(bands().getSnapshot().matches('failure')).toBe(true);
      expect(lastNotice()).toEqual(
        notice('danger', 'Occupancy cost bands fetching error occurs. Please try again later.'),
      );
    },
    clean: () => {
      expect(bands().getSnapshot().matches({ editing: 'clean' })).toBe(true);
      expect(draft()).toEqual(bandsDraftOf(3, BANDS));
      expect(bands().getSnapshot().can({ type: 'editor.save' })).toBe(false);
    },
    dirty: () => {
      expect(bands().getSnapshot().matches({ editing: 'dirty' })).toBe(true);
      expect(changedBands(draft())).toEqual(expectedChanges());
      expect(bands().getSnapshot().can({ type: 'editor.save' })).toBe(true);
      const refusal = bandsRefusalOf(bands().getSnapshot().context.saveError);
      expect(draft().rows.map((row) => refusalAtRow(row, refusal))).toEqual([undefined, undefined, undefined]);
    },
    invalid: () => {
      expect(bands().getSnapshot().matches({ editing: 'dirty' })).toBe(true);
      expect(bands().getSnapshot().can({ type: 'editor.save' })).toBe(false);
      expect(bandRowProblem(draft().rows[0] ?? { low: '', high: '', reset: false })).toEqual({
        field: 'low_percent',
        message: BAND_MESSAGES.order,
      });
    },
    saving: async () => {
      expect(bands().getSnapshot().hasTag('saving')).toBe(true);
      const request = await net.pending('PUT', BANDS_PATH);
      // Only the bands changed: a reset one as both ends null.
      expect(request.body).toEqual({ client_id: 3, bands: expectedChanges() });
    },
    failed: () => {
      expect(bands().getSnapshot().matches('failed')).toBe(true);
      expect(changedBands(draft())).toEqual(expectedChanges());
      expect(bandsRefusalOf(bands().getSnapshot().context.saveError)).toBeUndefined();
      expect(lastNotice()).toEqual(notice('danger', 'Save Failed.'));
    },
    refused: () => {
      expect(bands().getSnapshot().matches('failed')).toBe(true);
      const refusal = bandsRefusalOf(bands().getSnapshot().context.saveError);
      // At the band sent first, its low end, while it holds the ends refused.
      const first = expectedChanges()[0]?.category;
      expect(refusal).toMatchObject({
        category: first,
        field: 'low_percent',
        message: 'The low end of a band must be at most its high end.',
      });
      const row = draft().rows.find((candidate) => candidate.category === first);
      expect(row && refusalAtRow(row, refusal)).toBe(refusal);
      expect(lastNotice()).toEqual(notice('danger', 'Save Failed.'));
    },
    reloading: async () => {
      expect(page().children.bands).toBeUndefined();
      expect(lastNotice()).toEqual(notice('success', 'Save Successfully.'));
      expect(panel()).toEqual({ status: 'loading', data: undefined });
      const request = await net.pending('GET', STATEMENTS_PATH);
      expect(request.query.get('month')).toBe('2024-03');
      expect(request.query.getAll('mall_ids')).toEqual(['1', '2']);
    },
  },
  events: {
    open: () => {
      fnb = { low: '6', high: '10' };
      fashionReset = false;
      actor.send({ type: 'bands.open' });
      bands();
    },
    loadBands: async () => {
      await net.answer('GET', BANDS_PATH, 200, { bands: BANDS });
    },
    failLoad: async () => {
      await net.answer('GET', BANDS_PATH, 500, errorBody(500, 'boom'));
    },
    retry: () => bands().send({ type: 'editor.retry' }),
    close: () => actor.send({ type: 'bands.close' }),
    change: () => {
      typings += 1;
      fnb = { low: '6', high: String(10 + typings) };
      const typed = withBandText(draft(), 'F&B', 'low_percent', fnb.low);
      bands().send({ type: 'editor.change', value: withBandText(typed, 'F&B', 'high_percent', fnb.high) });
    },
    reset: () => {
      fashionReset = true;
      bands().send({ type: 'editor.change', value: withBandReset(draft(), 'Fashion') });
    },
    invalidate: () => {
      fnb = { ...fnb, low: '99' };
      bands().send({ type: 'editor.change', value: withBandText(draft(), 'F&B', 'low_percent', fnb.low) });
    },
    cancel: () => {
      fnb = { low: '6', high: '10' };
      fashionReset = false;
      bands().send({ type: 'editor.cancel' });
    },
    save: () => bands().send({ type: 'editor.save' }),
    resolveSave: async () => {
      bands();
      const saved: OccupancyBand[] = [
        ...(expectedChanges().some((band) => band.category === 'F&B')
          ? [{ category: 'F&B', low_percent: 6, high_percent: Number(fnb.high), source: 'client' as const }]
          : [BANDS[0] as OccupancyBand]),
        fashionReset
          ? { category: 'Fashion', low_percent: 10, high_percent: 15, source: 'default' }
          : (BANDS[1] as OccupancyBand),
        BANDS[2] as OccupancyBand,
      ];
      await net.answer('PUT', BANDS_PATH, 200, { bands: saved });
    },
    rejectSave: async () => {
      bands();
      await net.answer('PUT', BANDS_PATH, 500, errorBody(500, 'boom'));
    },
    refuseSave: async () => {
      bands();
      await net.answer('PUT', BANDS_PATH, 400, errorBody(400, REFUSED));
    },
    answerReport: async () => {
      await net.answer('GET', STATEMENTS_PATH, 200, CLOSED_REPORT);
    },
  },
};

describe('the Rent Statements page’s bands dialog (model)', () => {
  beforeEach(() => start());
  describeModelCoverage(model, params, {
    states: [
      'closed',
      'loading',
      'loadFailed',
      'clean',
      'dirty',
      'invalid',
      'saving',
      'failed',
      'refused',
      'reloading',
    ],
    transitions: 24,
  });
});

describe('the Rent Statements page’s bands dialog (details)', () => {
  it('is not offered to a user who may not set the bands', async () => {
    await start([`${STATEMENTS_PATH}::Read`, `${BANDS_PATH}::Read`]);
    expect(page().context.mayEditBands).toBe(false);
    expect(page().can({ type: 'bands.open' })).toBe(false);
    actor.send({ type: 'bands.open' });
    await flush();
    expect(page().children.bands).toBeUndefined();
    expect(net.open()).toEqual([]);
  });

  it('opens nothing before the report has a client and malls', () => {
    net.reset();
    setPermissionsList(PERMISSIONS);
    actor = createActor(pageMachine).start();
    expect(page().context.mayEditBands).toBe(true);
    expect(page().can({ type: 'bands.open' })).toBe(false);
    actor.send({ type: 'bands.open' });
    expect(page().children.bands).toBeUndefined();
  });

  it('closes the dialog when the report shows another client, and opens it for that client', async () => {
    await start();
    actor.send({ type: 'bands.open' });
    await net.pending('GET', BANDS_PATH);
    reportActor().send(headerEvent(4, [7]));
    await flush();
    expect(page().children.bands).toBeUndefined();
    expect(page().context.query?.clientId).toBe(4);
    // The first client's bands are not asked for any longer; the new client's statements are.
    expect(net.open().map((request) => `${request.method} ${request.path}`)).toEqual([`GET ${STATEMENTS_PATH}`]);
    await net.answer('GET', STATEMENTS_PATH, 200, CLOSED_REPORT);
    actor.send({ type: 'bands.open' });
    const request = await net.pending('GET', BANDS_PATH);
    expect(request.query.get('client_id')).toBe('4');
  });

  it('keeps the dialog open while the same client’s other malls or month are read', async () => {
    await start();
    actor.send({ type: 'bands.open' });
    await net.answer('GET', BANDS_PATH, 200, { bands: BANDS });
    reportActor().send(headerEvent(3, [1]));
    await flush();
    expect(page().children.bands).toBeDefined();
    expect(page().context.query?.mallIds).toEqual([1]);
  });
});
