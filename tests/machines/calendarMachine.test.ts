import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor } from 'xstate';
import type { CalendarEntry } from '../../src/api/calendar';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { HOLIDAY_MESSAGES } from '../../src/domain/calendar';
import type { CommittedFilters } from '../../src/domain/filterHeader';
import type { Notice } from '../../src/domain/messages';
import { createCalendarMachine } from '../../src/machines/calendarMachine';
import { errorBody, fakeNetwork } from './settingsNetwork';

/*
 * The Calendar page's machine over an injected network: the header tells client 3, whose malls are in Singapore
 * and Malaysia; the page shows the first country in the header's year, another country or year on request (only
 * one offered), and adds, changes and removes entries with the spec's toasts.
 */

const PATH = '/api/calendar';
const FILTERS: CommittedFilters = {
  clientId: 3,
  mallIds: [1],
  outlet: undefined,
  dateRange: { start: '2026-11-01', end: '2026-11-07' },
  hours: { from: 0, to: 23 },
  timeRange: 'daily',
  metric: 'gmv',
  month: undefined,
};
const MALLS = [
  { id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
  { id: 2, name: 'Bukit', currency: 'MYR', time_zone: 'Asia/Kuala_Lumpur', country: 'MY' },
];
const CNY: CalendarEntry = {
  id: 5,
  country: 'SG',
  start_date: '2026-02-17',
  end_date: '2026-02-18',
  name: 'Chinese New Year',
  kind: 'festival',
  festival: 'chinese_new_year',
};

const net = fakeNetwork();
const machine = createCalendarMachine(net.client);
let actor: Actor<typeof machine>;
let notices: Notice[];

beforeEach(() => {
  net.reset();
  setPermissionsList([`${PATH}::Read`, `${PATH}::Create`, `${PATH}::Update`, `${PATH}::Delete`]);
  notices = [];
  actor = createActor(machine);
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
});
afterEach(() => actor.stop());
afterAll(() => clearSession());

const toast = (intent: 'success' | 'danger', message: string) => ({ type: 'notify', intent, message, timeout: 5000 });

async function loaded(entries: CalendarEntry[] = [CNY]) {
  actor.send({ type: 'header.filters', filters: FILTERS, outlets: [], today: '2026-11-25', malls: MALLS });
  const request = await net.answer('GET', PATH, 200, { entries });
  return request;
}

describe('the calendar page', () => {
  it('shows the first country of the client’s malls in the header’s year, and another on request', async () => {
    const request = await loaded();
    expect(Object.fromEntries(request.query)).toEqual({ client_id: '3', country: 'MY', year: '2026' });
    expect(actor.getSnapshot().context.countries).toEqual(['MY', 'SG']);
    expect(actor.getSnapshot().context.entries).toEqual([CNY]);
    actor.send({ type: 'calendar.country', country: 'ID' });
    expect(net.open()).toHaveLength(0);
    actor.send({ type: 'calendar.country', country: 'SG' });
    expect((await net.answer('GET', PATH, 200, { entries: [] })).query.get('country')).toBe('SG');
    actor.send({ type: 'calendar.year', year: 2025 });
    expect((await net.answer('GET', PATH, 200, { entries: [] })).query.get('year')).toBe('2025');
  });

  it('adds an entry of the page’s country, trimmed, its last day following its first', async () => {
    await loaded();
    actor.send({ type: 'form.open' });
    actor.send({ type: 'form.change', field: 'name', value: ' Staff day ' });
    actor.send({ type: 'form.change', field: 'start', value: '2026-03-02' });
    expect(actor.getSnapshot().context.draft).toMatchObject({ start: '2026-03-02', end: '2026-03-02' });
    actor.send({ type: 'form.change', field: 'festival', value: 'Not a key' });
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(false);
    actor.send({ type: 'form.change', field: 'festival', value: '' });
    actor.send({ type: 'form.submit' });
    const request = await net.answer('POST', PATH, 200, { ...CNY, id: 6, name: 'Staff day', festival: null });
    expect(request.body).toEqual({
      client_id: 3,
      country: 'MY',
      start_date: '2026-03-02',
      end_date: '2026-03-02',
      name: 'Staff day',
      kind: 'public_holiday',
      festival: null,
    });
    expect(notices).toEqual([toast('success', HOLIDAY_MESSAGES.added)]);
    await net.pending('GET', PATH);
  });

  it('changes an entry, saying a failure in the dialog, and removes one after the question', async () => {
    await loaded();
    actor.send({ type: 'form.open', entry: CNY });
    actor.send({ type: 'form.change', field: 'name', value: 'Lunar New Year' });
    actor.send({ type: 'form.submit' });
    await net.answer('PUT', PATH, 500, errorBody(500, 'boom'));
    expect(actor.getSnapshot().context.formError).toBe(HOLIDAY_MESSAGES.updateFailed);
    actor.send({ type: 'form.submit' });
    const update = await net.answer('PUT', PATH, 200, { ...CNY, name: 'Lunar New Year' });
    expect(update.body).toMatchObject({ id: 5, festival: 'chinese_new_year', name: 'Lunar New Year' });
    expect(notices).toEqual([toast('success', HOLIDAY_MESSAGES.updated)]);
    await net.answer('GET', PATH, 200, { entries: [CNY] });
    actor.send({ type: 'delete.ask', entry: CNY });
    actor.send({ type: 'delete.confirm' });
    await net.answer('DELETE', PATH, 200, { id: 5 });
    expect(notices.at(-1)).toEqual(toast('success', 'Chinese New Year has been deleted successfully.'));
  });
});
