import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor } from 'xstate';
import type { MallEvent } from '../../src/api/calendar';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { EVENT_MESSAGES } from '../../src/domain/calendar';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import {
  createMallEventsMachine,
  type MallEventsEvent,
  mallEventDialogMachine,
  newEventDraft,
} from '../../src/machines/mallEventsMachine';
import { errorBody, fakeNetwork } from './settingsNetwork';

/*
 * The Events page's machine over an injected network: the header tells client 3 with Central (1) and Harbour (4)
 * selected over 1-7 Nov; the list asks for their events; an event is added on the first mall and the header's
 * days, changed, and removed after a confirmation, each with the spec's toast; a refusal is said in the dialog.
 */

const PATH = '/api/mall_events';
const FILTERS: CommittedFilters = {
  clientId: 3,
  mallIds: [1, 4],
  outlet: undefined,
  dateRange: { start: '2026-11-01', end: '2026-11-07' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: undefined,
};
const MALLS = [
  { id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
  { id: 4, name: 'Harbour', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
  { id: 9, name: 'Other', currency: 'MYR', time_zone: 'Asia/Kuala_Lumpur', country: 'MY' },
];
const FAIR: MallEvent = {
  id: 21,
  mall_id: 1,
  title: 'Food fair',
  start_date: '2026-11-02',
  end_date: '2026-11-03',
  kind: 'event',
  created_by: 'Olivia',
};

const net = fakeNetwork();
const machine = createMallEventsMachine(net.client);
let actor: Actor<typeof machine>;
let notices: Notice[];
let saved: number;

beforeEach(() => {
  net.reset();
  setPermissionsList([`${PATH}::Read`, `${PATH}::Create`, `${PATH}::Update`, `${PATH}::Delete`]);
  notices = [];
  saved = 0;
  actor = createActor(machine);
  actor.on('notify', (notice) => notices.push(notice));
  actor.on('event.saved', () => {
    saved += 1;
  });
  actor.start();
});
afterEach(() => actor.stop());
afterAll(() => clearSession());

const toast = (intent: 'success' | 'danger', message: string) => ({ type: 'notify', intent, message, timeout: 5000 });

async function loaded(events: MallEvent[] = [FAIR]) {
  actor.send({ type: 'header.filters', filters: FILTERS, outlets: [], today: '2026-11-25', malls: MALLS });
  const request = await net.answer('GET', PATH, 200, { events, holidays: [] });
  expect(request.query.getAll('mall_ids')).toEqual(['1', '4']);
  expect(request.query.get('start_time')).toBe('2026-11-01');
  expect(request.query.get('end_time')).toBe('2026-11-07');
  expect(actor.getSnapshot().matches({ list: 'loaded' })).toBe(true);
}

describe('the events page', () => {
  it('lists the header malls’ events and offers the selected malls only', async () => {
    await loaded();
    expect(actor.getSnapshot().context.events).toEqual([FAIR]);
    expect(actor.getSnapshot().context.malls).toEqual([
      { id: 1, name: 'Central' },
      { id: 4, name: 'Harbour' },
    ]);
  });

  it('says a failed list and asks again on retry', async () => {
    actor.send({ type: 'header.filters', filters: FILTERS, outlets: [], malls: MALLS });
    await net.answer('GET', PATH, 500, errorBody(500, 'boom'));
    expect(actor.getSnapshot().matches({ list: 'failed' })).toBe(true);
    actor.send({ type: 'list.retry' });
    await net.answer('GET', PATH, 200, { events: [], holidays: [] });
    expect(actor.getSnapshot().context.events).toEqual([]);
  });

  it('adds an event on the first mall and the header’s days, with the toast, and reads the list again', async () => {
    await loaded([]);
    actor.send({ type: 'form.open' });
    expect(actor.getSnapshot().context.draft).toEqual(
      newEventDraft({ clientId: 3, ...{ mallIds: [1, 4] }, start: '2026-11-01', end: '2026-11-07' }),
    );
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(false);
    actor.send({ type: 'form.change', field: 'title', value: '  Lantern walk ' });
    actor.send({ type: 'form.change', field: 'kind', value: 'sale' });
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(true);
    actor.send({ type: 'form.submit' });
    const request = await net.answer('POST', PATH, 200, { ...FAIR, id: 22, title: 'Lantern walk', kind: 'sale' });
    expect(request.body).toEqual({
      client_id: 3,
      mall_id: 1,
      title: 'Lantern walk',
      start_date: '2026-11-01',
      end_date: '2026-11-07',
      kind: 'sale',
    });
    expect(notices).toEqual([toast('success', EVENT_MESSAGES.added)]);
    expect(saved).toBe(1);
    expect(actor.getSnapshot().matches({ form: 'closed' })).toBe(true);
    await net.pending('GET', PATH);
  });

  it('keeps the draft and says the server’s refusal in the dialog', async () => {
    await loaded();
    actor.send({ type: 'form.open', event: FAIR });
    actor.send({ type: 'form.change', field: 'title', value: 'Food fair 2' });
    actor.send({ type: 'form.submit' });
    const request = await net.answer('PUT', PATH, 400, errorBody(400, 'end_date must be on or after start_date.'));
    expect(request.body).toMatchObject({ id: 21, title: 'Food fair 2' });
    expect(actor.getSnapshot().matches({ form: { open: 'editing' } })).toBe(true);
    expect(actor.getSnapshot().context.formError).toBe('end_date must be on or after start_date.');
    actor.send({ type: 'form.submit' });
    await net.answer('PUT', PATH, 500, errorBody(500, 'boom'));
    expect(actor.getSnapshot().context.formError).toBe(EVENT_MESSAGES.updateFailed);
    actor.send({ type: 'form.cancel' });
    expect(actor.getSnapshot().context.draft).toBeUndefined();
  });

  it('refuses a draft with its last day before its first or more than 62 days after it', async () => {
    await loaded();
    actor.send({ type: 'form.open', event: FAIR });
    actor.send({ type: 'form.change', field: 'end', value: '2026-11-01' });
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(false);
    actor.send({ type: 'form.change', field: 'end', value: '2027-01-04' });
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(false);
    actor.send({ type: 'form.change', field: 'end', value: '2027-01-03' });
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(true);
  });

  it('removes an event after the question, with the spec’s toasts', async () => {
    await loaded();
    actor.send({ type: 'delete.ask', event: FAIR });
    expect(actor.getSnapshot().matches({ remove: 'confirming' })).toBe(true);
    actor.send({ type: 'delete.confirm' });
    const request = await net.answer('DELETE', PATH, 200, { id: 21 });
    expect(request.query.get('id')).toBe('21');
    expect(notices).toEqual([toast('success', 'Food fair has been deleted successfully.')]);
    await net.answer('GET', PATH, 200, { events: [], holidays: [] });
    actor.send({ type: 'delete.ask', event: FAIR });
    actor.send({ type: 'delete.confirm' });
    await net.answer('DELETE', PATH, 404, errorBody(404, 'No such event.'));
    expect(notices.at(-1)).toEqual(toast('danger', 'Delete Food fair failed.'));
  });

  it('opens a new event for given malls and days without a list (Mall Home)', () => {
    actor.send({
      type: 'form.start',
      query: { clientId: 3, mallIds: [4], start: '2026-01-01', end: '2026-06-30' },
      malls: [{ id: 4, name: 'Harbour' }],
    });
    const { draft } = actor.getSnapshot().context;
    expect(draft).toMatchObject({ mallId: 4, start: '2026-01-01', end: '2026-03-04', id: undefined });
  });
});

describe('Mall Home’s Add event', () => {
  const START: MallEventsEvent = {
    type: 'form.start',
    query: { clientId: 3, mallIds: [4], start: '2026-01-01', end: '2026-06-30' },
    malls: [{ id: 4, name: 'Harbour' }],
  };
  /** The dialog Mall Home runs, started with these permissions in the session. */
  function dialogWith(permissions: readonly string[]) {
    setPermissionsList(permissions);
    return createActor(mallEventDialogMachine).start();
  }

  it('is not offered to a user who may not POST /api/mall_events, and opens nothing when asked', () => {
    for (const permissions of [
      [],
      [`${PATH}::Read`, `${PATH}::Update`, `${PATH}::Delete`],
      ['/api/calendar::Create'],
    ]) {
      const dialog = dialogWith(permissions);
      expect(dialog.getSnapshot().context.mayAdd, permissions.join()).toBe(false);
      expect(dialog.getSnapshot().can(START)).toBe(false);
      dialog.send(START);
      expect(dialog.getSnapshot().matches({ form: 'closed' })).toBe(true);
      expect(dialog.getSnapshot().context.draft).toBeUndefined();
      dialog.stop();
    }
  });

  it('is offered to a user who may, by the operation’s own pair, a pattern or every pair', () => {
    for (const permissions of [[`${PATH}::Create`], ['/api/*::Create'], ['*::*']]) {
      const dialog = dialogWith(permissions);
      expect(dialog.getSnapshot().context.mayAdd, permissions.join()).toBe(true);
      expect(dialog.getSnapshot().can(START)).toBe(true);
      dialog.send(START);
      expect(dialog.getSnapshot().matches({ form: { open: 'editing' } })).toBe(true);
      expect(dialog.getSnapshot().context.draft).toMatchObject({ mallId: 4, start: '2026-01-01' });
      dialog.stop();
    }
  });
});
