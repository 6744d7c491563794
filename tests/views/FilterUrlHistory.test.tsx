import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../../src/api/session';
import { CLIENTS, MALLS, OUTLETS } from './layoutHarness';
import { currentPath, fakeServer, renderApp, userInfo } from './renderApp';

/** The lookup calls answered from the harness's data, through the app's real api client. */
function answerLookups(): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      const clientId = Number(url.searchParams.get('client_id'));
      const body =
        url.pathname === '/clients'
          ? CLIENTS
          : url.pathname === '/malls'
            ? (MALLS[clientId] ?? [])
            : url.pathname === '/outlets'
              ? (OUTLETS[clientId] ?? [])
              : undefined;
      return body === undefined
        ? new Response(JSON.stringify({ statusCode: 404, message: 'Not Found' }), {
            status: 404,
            headers: { 'Content-Type': 'application/json' },
          })
        : new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

/*
 * The committed filters in the address, through the navigation guard: a page opened without filters keeps
 * its address; the user's first change completes that entry and adds one; back (the browser's address
 * moving on its own) brings the filters back. The lookups answer from the harness's data.
 */

/** Sign-in, routes and lookups of the whole app take longer than a second on a busy machine. */
const SIGN_IN = { timeout: 5_000 };

// The server gives the super admin every permission ('*::*'), so the client's request gate lets every lookup through.
const admin = userInfo({ roles: ['super admin'], clients: [3, 4], client_id: 3, permissionsList: ['*::*'] });

beforeEach(answerLookups);

afterEach(() => {
  cleanup();
  clearSession();
  vi.unstubAllGlobals();
});

describe('filters in the address', () => {
  it("keeps a page's address until the user changes a filter, then completes its entry and adds one", async () => {
    // Apps: a page that offers All Outlets (its filters are the client, malls and outlet; no dates).
    const location = renderApp(
      '/apps',
      fakeServer({ credential: () => Promise.resolve({ user: admin, csrfToken: 'c' }) }),
    );
    const select = (await screen.findByTestId('outlet-dropdown', {}, SIGN_IN)) as HTMLSelectElement;
    await waitFor(() => expect([...select.options].some((option) => option.value === '12')).toBe(true), SIGN_IN);
    // The malls' lookup settles too (the fake server answers at once).
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(currentPath(location)).toBe('/apps');
    const entries = location.history?.length ?? 0;

    fireEvent.change(select, { target: { value: '12' } });
    expect(select.selectedOptions[0]?.textContent).toBe('Kopi Corner (12)');
    const history = location.history ?? [];
    expect(history.length).toBe(entries + 1);
    expect(history.at(-2)).toBe('/apps?client=3&malls=1,2&outlet=all');
    expect(history.at(-1)).toBe('/apps?client=3&malls=1,2&outlet=12');

    // Back: the address moves on its own, the guard lets it through, the header reads it.
    const previous = history.at(-2) ?? '';
    act(() => location.navigate(previous, { replace: true }));
    await waitFor(() => expect(select.selectedOptions[0]?.textContent).toBe('All Outlets'), SIGN_IN);
  });

  it("restores the filters of a link, checked against the user's clients", async () => {
    // The sales analysis: an outlet-level page with a date range (its report calls answer 404 here).
    const link = '/tenant-connect/sales-analysis?client=4&outlet=20&from=2020-01-01&to=2020-01-05';
    const location = renderApp(
      link,
      fakeServer({ credential: () => Promise.resolve({ user: admin, csrfToken: 'c' }) }),
    );
    await waitFor(
      () => expect(screen.getByTestId('date-range-button').textContent).toBe('1 Jan 2020 - 5 Jan 2020'),
      SIGN_IN,
    );
    const outlet = screen.getByTestId('outlet-dropdown') as HTMLSelectElement;
    await waitFor(() => expect(outlet.selectedOptions[0]?.textContent).toBe('Bakery (20)'), SIGN_IN);
    // Completed in place (malls added), no new entry.
    await waitFor(() =>
      expect(currentPath(location)).toBe(
        '/tenant-connect/sales-analysis?client=4&malls=5&outlet=20&from=2020-01-01&to=2020-01-05',
      ),
    );
  });

  it('keeps the filters through a sidebar link, so that a reload of the next page restores them', async () => {
    // Cross spending (the header's one outlet and its days; its report calls answer 404 here) and Export.
    const server = () => fakeServer({ credential: () => Promise.resolve({ user: admin, csrfToken: 'c' }) });
    const location = renderApp(
      '/shopper-connect/cross-spending?client=3&malls=2&from=2024-03-01&to=2024-03-05',
      server(),
    );
    await waitFor(
      () => expect(screen.getByTestId('date-range-button').textContent).toBe('1 Mar 2024 - 5 Mar 2024'),
      SIGN_IN,
    );
    fireEvent.change(screen.getByTestId('outlet-dropdown'), { target: { value: '12' } });

    fireEvent.click(await screen.findByTestId('nav-link-/shopper-connect/export'));
    await waitFor(() => expect(screen.getByTestId('page-title').textContent).toBe('Export'), SIGN_IN);
    const next = currentPath(location) ?? '';
    expect(next).toBe('/shopper-connect/export?client=3&malls=2&outlet=12&from=2024-03-01&to=2024-03-05');

    // A reload: a new app on that address, no cookies; back on cross spending, every filter came from it.
    cleanup();
    clearSession();
    const reloaded = renderApp(next, server());
    await waitFor(() => expect(screen.getByTestId('page-title').textContent).toBe('Export'), SIGN_IN);
    fireEvent.click(await screen.findByTestId('nav-link-/shopper-connect/cross-spending'));
    await waitFor(
      () => expect(screen.getByTestId('date-range-button').textContent).toBe('1 Mar 2024 - 5 Mar 2024'),
      SIGN_IN,
    );
    const outlet = screen.getByTestId('outlet-dropdown') as HTMLSelectElement;
    await waitFor(() => expect(outlet.selectedOptions[0]?.textContent).toBe('Kopi Corner (12)'), SIGN_IN);
    expect(currentPath(reloaded)).toBe(
      '/shopper-connect/cross-spending?client=3&malls=2&outlet=12&from=2024-03-01&to=2024-03-05',
    );
  });
});

/*
 * A report page's choice of comparison in the address beside the filters: the page starts with the one of its
 * address, the user's change replaces the entry, and the header's next write of the filters keeps it.
 */
describe('the comparison in the address', () => {
  it("starts from the address, is written in place, and stays through the header's next change", async () => {
    // Mall Home (its report calls answer 404 here: the panels fail, the controls are enabled again).
    const location = renderApp(
      '/shopper-connect/mall-home?client=3&malls=1,2&compare=festival_aligned',
      fakeServer({ credential: () => Promise.resolve({ user: admin, csrfToken: 'c' }) }),
    );
    const rule = (await screen.findByTestId('comparison-rule', {}, SIGN_IN)) as HTMLSelectElement;
    expect(rule.value).toBe('festival_aligned');
    await waitFor(() => expect(rule.disabled).toBe(false), SIGN_IN);
    // The header has completed the address with the filters it settled on.
    const filters = (currentPath(location) ?? '').split('compare=festival_aligned&')[1] ?? '';
    expect(filters).toMatch(/^client=3&malls=1,2&outlet=all&from=/);
    const entries = location.history.length;

    fireEvent.change(rule, { target: { value: 'same_weekday_last_year' } });
    expect(location.history.length).toBe(entries);
    expect(currentPath(location)).toBe(`/shopper-connect/mall-home?compare=same_weekday_last_year&${filters}`);
    await waitFor(() => expect(rule.disabled).toBe(false), SIGN_IN);
    fireEvent.click(screen.getByTestId('comparison-like-for-like'));
    expect(currentPath(location)).toBe(
      `/shopper-connect/mall-home?compare=same_weekday_last_year&like_for_like=1&${filters}`,
    );
    await waitFor(() => expect(rule.disabled).toBe(false), SIGN_IN);

    // Only Central: a new entry with the new malls, the comparison kept.
    fireEvent.click(screen.getByTestId('malls-select'));
    fireEvent.click(screen.getByTestId('malls-deselect-all'));
    fireEvent.click(screen.getByTestId('malls-option-1'));
    fireEvent.click(screen.getByTestId('malls-apply'));
    await waitFor(() => expect(location.history.length).toBe(entries + 1));
    expect(currentPath(location)).toBe(
      `/shopper-connect/mall-home?compare=same_weekday_last_year&like_for_like=1&${filters.replace('malls=1,2', 'malls=1')}`,
    );
    expect(rule.value).toBe('same_weekday_last_year');
  });
});

/*
 * Back and forward over a change of the comparison: the page shows the choice of the entry it comes to, with the
 * filters of that entry, and asks its report once for it.
 */
describe('the comparison through back and forward', () => {
  it('shows the choice of the entry the address moves to, and asks the report once', async () => {
    const location = renderApp(
      '/shopper-connect/mall-home?client=3&malls=1,2',
      fakeServer({ credential: () => Promise.resolve({ user: admin, csrfToken: 'c' }) }),
    );
    const rule = (await screen.findByTestId('comparison-rule', {}, SIGN_IN)) as HTMLSelectElement;
    await waitFor(() => expect(rule.disabled).toBe(false), SIGN_IN);
    const opened = currentPath(location) ?? '';
    expect(opened).toMatch(/^\/shopper-connect\/mall-home\?client=3&malls=1,2&outlet=all&from=/);

    // Only Central (a new entry), then festival-aligned (in place of it).
    fireEvent.click(screen.getByTestId('malls-select'));
    fireEvent.click(screen.getByTestId('malls-deselect-all'));
    fireEvent.click(screen.getByTestId('malls-option-1'));
    fireEvent.click(screen.getByTestId('malls-apply'));
    await waitFor(() => expect(rule.disabled).toBe(false), SIGN_IN);
    fireEvent.change(rule, { target: { value: 'festival_aligned' } });
    await waitFor(() => expect(rule.disabled).toBe(false), SIGN_IN);
    const festival = currentPath(location) ?? '';
    expect(festival).toBe(
      `/shopper-connect/mall-home?compare=festival_aligned&${opened.split('?')[1]}`.replace('malls=1,2', 'malls=1'),
    );
    expect(location.history.at(-2)).toBe(opened);

    /** The report calls the page makes while `move` runs and the panels settle. */
    const reportCallsOf = async (move: () => void): Promise<string[]> => {
      const calls = vi.mocked(fetch).mock.calls.length;
      act(move);
      await waitFor(() => expect(rule.disabled).toBe(false), SIGN_IN);
      return vi
        .mocked(fetch)
        .mock.calls.slice(calls)
        .map(([request]) => new URL((request as Request).url))
        .filter((url) => !['/clients', '/malls', '/outlets'].includes(url.pathname))
        .map((url) => `${url.pathname}${url.search}`);
    };

    // Back: the default comparison of the first entry, with its malls; each call of the report asked once.
    const back = await reportCallsOf(() => location.navigate(opened, { replace: true }));
    expect(rule.value).toBe('previous');
    expect(back.length).toBeGreaterThan(0);
    expect(new Set(back).size).toBe(back.length);
    expect(back.every((call) => !call.includes('festival_aligned'))).toBe(true);
    // Nothing written: the address is the entry the browser moved to.
    expect(currentPath(location)).toBe(opened);

    // Forward: festival-aligned again.
    const forward = await reportCallsOf(() => location.navigate(festival, { replace: true }));
    expect(rule.value).toBe('festival_aligned');
    expect(new Set(forward).size).toBe(forward.length);
    expect(forward.some((call) => call.includes('festival_aligned'))).toBe(true);
    expect(currentPath(location)).toBe(festival);
  });
});
