import { Classes } from '@blueprintjs/core';
import { cleanup, configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GtoSubmission, GtoSubmissionRequest } from '../../src/api/gto';
import type { Outlet } from '../../src/api/lookup';
import { clearSession, setPermissionsList } from '../../src/api/session';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { GtoSubmissionPage } from '../../src/views/pages/gto/GtoSubmissionPage';
import { type Deferred, deferred } from '../support/deferred';
import { renderInApp, userInfo } from './renderApp';

/*
 * The GTO submission page (§2, §7, §8) with the real filter header and submission machine behind it and the app's
 * one api client: the network is a fetch handler on globalThis that answers what each test gives it. The tenant's
 * one outlet (SGD, a mall in Singapore) is auto-selected; today is 25 November 2026 there, so November shows 25
 * days.
 */

configure({ asyncUtilTimeout: 5_000 });

const TODAY = '2026-11-25';
const CLIENT_ID = 3;
const KOPI: Outlet = { id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null };
const SUBMITTED_AT = '2026-11-03T10:15:00.000Z';

type Answer = { status: number; body: unknown };

interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

let calls: Call[];
/** The answer of GET submissionData for a month; of POST / PUT for a body. */
let monthAnswer: (month: string) => Answer | Promise<Answer>;
let saveAnswer: (body: GtoSubmissionRequest, method: string) => Answer | Promise<Answer>;

function month(overrides: Partial<GtoSubmission> = {}): GtoSubmission {
  return {
    outlet_id: KOPI.id,
    searchedMonth: '2026-11',
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

function stored(body: GtoSubmissionRequest, method: string): GtoSubmission {
  return month({
    searchedMonth: body.searchedMonth,
    gtoSubmissionData: body.gtoSubmissionData,
    total: body.gtoSubmissionData.reduce((sum, day) => sum + day.gto, 0),
    submitted: true,
    submitted_at: SUBMITTED_AT,
    updated_at: method === 'PUT' ? '2026-11-05T09:00:00.000Z' : SUBMITTED_AT,
    submitted_by: 'tenant@demo.mall',
    remarks: body.remarks ?? null,
  });
}

function installNetwork(): void {
  calls = [];
  monthAnswer = (searchedMonth) => ({ status: 200, body: month({ searchedMonth }) });
  saveAnswer = (body, method) => ({ status: 200, body: stored(body, method) });
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    const text = request.method === 'GET' ? '' : await request.text();
    const body = text === '' ? undefined : JSON.parse(text);
    calls.push({ method: request.method, path: url.pathname, query: url.searchParams, body });
    let answer: Answer;
    if (url.pathname === '/malls') answer = { status: 200, body: [] };
    else if (url.pathname === '/outlets') answer = { status: 200, body: [KOPI] };
    else if (url.pathname === '/api/gtoReport/submissionData') {
      answer =
        request.method === 'GET'
          ? await monthAnswer(url.searchParams.get('searchedMonth') ?? '')
          : await saveAnswer(body as GtoSubmissionRequest, request.method);
    } else
      answer = { status: 404, body: { statusCode: 404, error: 'Not Found', message: `${url.pathname} not found` } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
}

const gtoCalls = () => calls.filter((call) => call.path === '/api/gtoReport/submissionData');
const toastTexts = () => [...document.querySelectorAll(`.${Classes.TOAST}`)].map((toast) => toast.textContent ?? '');
const amount = (date: string) => screen.getByTestId(`gto-amount-${date}`) as HTMLInputElement;
const saveButton = () => screen.getByTestId('gto-save') as HTMLButtonElement;

function renderPage(): void {
  setPermissionsList(['*::*']);
  renderInApp(<GtoSubmissionPage title="GTO Submission" />, {
    user: userInfo({
      client_id: CLIENT_ID,
      clients: [CLIENT_ID],
      username: 'tenant@demo.mall',
      permissions: [{ name: 'tenants', subPermissions: ['gto_submission'] }],
      permissionsList: ['*::*'],
    }),
    path: '/tenants/gto_submission',
    today: TODAY,
    header: filterHeaderMachine.provide({ actions: { writeUrl: () => undefined, writeCookies: () => undefined } }),
    pageFilters: () => ({ period: 'month', outletMode: 'single' }),
  });
}

async function renderLoaded(): Promise<void> {
  renderPage();
  await screen.findByTestId('gto-submission-form');
}

beforeEach(() => {
  // A fixed clock on the 25th (the server's answers say the outlet's today is the 25th too).
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-25T04:00:00Z'));
  installNetwork();
});

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('the GTO submission page', () => {
  it('shows a skeleton while the month loads, then every day up to today, not submitted yet', async () => {
    const pending: Deferred<Answer> = deferred();
    monthAnswer = () => pending.promise;
    renderPage();
    await screen.findByTestId('gto-submission-loading');
    expect(screen.queryByText('No Data')).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'GTO Submission' })).toBeDefined();
    await waitFor(() => expect(gtoCalls()).toHaveLength(1));
    expect(Object.fromEntries(gtoCalls()[0]?.query ?? [])).toEqual({
      client_id: String(CLIENT_ID),
      outlet_id: String(KOPI.id),
      searchedMonth: '2026-11',
    });
    pending.resolve({ status: 200, body: month() });
    await screen.findByTestId('gto-submission-form');
    expect(screen.getAllByTestId(/^gto-amount-/)).toHaveLength(25);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('GTO of November 2026');
    expect(screen.getByTestId('gto-submitted-line').textContent).toBe('Not submitted yet.');
    expect(saveButton().textContent).toBe('Submit');
    expect(saveButton().disabled).toBe(true);
    expect(screen.getByTestId('gto-total').textContent).toBe('$0.00');
    expect(screen.getByLabelText('GTO of 1 November 2026')).toBe(amount('2026-11-01'));
  });

  it('totals the amounts as typed, submits them with POST, toasts and says who submitted', async () => {
    await renderLoaded();
    fireEvent.change(amount('2026-11-01'), { target: { value: '$1,234.5' } });
    fireEvent.change(amount('2026-11-02'), { target: { value: '10' } });
    fireEvent.change(screen.getByTestId('gto-remarks'), { target: { value: 'Includes online orders' } });
    expect(screen.getByTestId('gto-total').textContent).toBe('$1,244.50');
    expect(screen.getByTestId('gto-header-held').textContent).toBe(
      'Save or discard the changes to choose another month or outlet.',
    );
    expect(saveButton().disabled).toBe(false);
    fireEvent.click(saveButton());
    await waitFor(() => expect(toastTexts()).toContain('GTO for November 2026 submitted.'));
    const post = gtoCalls().find((call) => call.method === 'POST');
    expect(post?.body).toEqual({
      client_id: CLIENT_ID,
      outlet_id: KOPI.id,
      searchedMonth: '2026-11',
      gtoSubmissionData: [
        { date: '2026-11-01', gto: 1234.5 },
        { date: '2026-11-02', gto: 10 },
      ],
      remarks: 'Includes online orders',
    });
    await waitFor(() => expect(saveButton().textContent).toBe('Save correction'));
    expect(screen.getByTestId('gto-submitted-line').textContent).toMatch(
      /^Submitted by tenant@demo\.mall on 2026-11-\d\d \d\d:15:00$/,
    );
    expect(amount('2026-11-01').value).toBe('1234.50');
    expect(saveButton().disabled).toBe(true);
    expect(screen.queryByTestId('gto-header-held')).toBeNull();
  });

  it('corrects a submitted month with PUT and says when it was last corrected', async () => {
    monthAnswer = () => ({
      status: 200,
      body: month({
        gtoSubmissionData: [{ date: '2026-11-01', gto: 100 }],
        total: 100,
        submitted: true,
        submitted_at: SUBMITTED_AT,
        updated_at: SUBMITTED_AT,
        submitted_by: 'tenant@demo.mall',
      }),
    });
    await renderLoaded();
    expect(amount('2026-11-01').value).toBe('100.00');
    expect(saveButton().textContent).toBe('Save correction');
    fireEvent.change(amount('2026-11-01'), { target: { value: '120' } });
    fireEvent.click(saveButton());
    await waitFor(() => expect(toastTexts()).toContain('GTO for November 2026 corrected.'));
    expect(gtoCalls().at(-1)?.method).toBe('PUT');
    await waitFor(() =>
      expect(screen.getByTestId('gto-submitted-line').textContent).toMatch(
        /^Submitted on 2026-11-\d\d \d\d:15:00, last corrected by tenant@demo\.mall on 2026-11-\d\d \d\d:00:00$/,
      ),
    );
  });

  it('disables the save and says why while an amount does not parse', async () => {
    await renderLoaded();
    fireEvent.change(amount('2026-11-03'), { target: { value: '12.345' } });
    expect(screen.getByText('Enter an amount of 0 or more with at most 2 decimals.')).toBeDefined();
    expect(amount('2026-11-03').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('gto-problem').textContent).toBe('Correct the amounts marked in red to save.');
    expect(saveButton().disabled).toBe(true);
    fireEvent.change(amount('2026-11-03'), { target: { value: '-4' } });
    expect(saveButton().disabled).toBe(true);
    fireEvent.change(amount('2026-11-03'), { target: { value: '12.34' } });
    expect(screen.queryByTestId('gto-problem')).toBeNull();
    expect(saveButton().disabled).toBe(false);
    fireEvent.click(screen.getByTestId('gto-cancel'));
    expect(amount('2026-11-03').value).toBe('');
    expect(saveButton().disabled).toBe(true);
  });

  it("keeps the draft and shows the server's message when the save fails", async () => {
    saveAnswer = () => ({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: 'gtoSubmissionData/0/date must not be after today.' },
    });
    await renderLoaded();
    fireEvent.change(amount('2026-11-25'), { target: { value: '99' } });
    fireEvent.click(saveButton());
    await screen.findByTestId('gto-save-error');
    expect(screen.getByTestId('gto-save-error').textContent).toBe('gtoSubmissionData/0/date must not be after today.');
    await waitFor(() => expect(toastTexts()).toContain('gtoSubmissionData/0/date must not be after today.'));
    expect(amount('2026-11-25').value).toBe('99');
    expect(saveButton().disabled).toBe(false);
    expect(saveButton().textContent).toBe('Submit');
  });

  it('says a closed month is closed, and nothing can be typed or saved', async () => {
    monthAnswer = (searchedMonth) => ({ status: 200, body: month({ searchedMonth, open: false }) });
    await renderLoaded();
    expect(screen.getByTestId('gto-month-closed').textContent).toBe('This month is closed for submissions.');
    expect(amount('2026-11-01').disabled).toBe(true);
    expect((screen.getByTestId('gto-remarks') as HTMLTextAreaElement).disabled).toBe(true);
    expect(saveButton().disabled).toBe(true);
  });

  it('shows a month declared as a total only with its total and empty days', async () => {
    monthAnswer = () => ({
      status: 200,
      body: month({ total: 5000, submitted: true, submitted_at: SUBMITTED_AT, updated_at: SUBMITTED_AT }),
    });
    await renderLoaded();
    expect(screen.getByTestId('gto-total').textContent).toBe('$5,000.00');
    expect(screen.getByTestId('gto-total-only').textContent).toBe(
      'This month was declared as a total only: enter its days to correct it.',
    );
    expect(amount('2026-11-01').value).toBe('');
  });

  it('loads another month when the month picker changes', async () => {
    await renderLoaded();
    fireEvent.change(screen.getByTestId('month-picker'), { target: { value: '2026-10' } });
    await waitFor(() => expect(gtoCalls().at(-1)?.query.get('searchedMonth')).toBe('2026-10'));
    await waitFor(() => expect(screen.getAllByTestId(/^gto-amount-/)).toHaveLength(31));
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('GTO of October 2026');
  });

  it('toasts a failed load and retries it', async () => {
    let failing = true;
    monthAnswer = (searchedMonth) =>
      failing
        ? { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' } }
        : { status: 200, body: month({ searchedMonth }) };
    renderPage();
    await screen.findByTestId('gto-submission-failure');
    await waitFor(() =>
      expect(toastTexts()).toContain('GTO submission fetching error occurs. Please try again later.'),
    );
    expect(screen.queryByText('No Data')).toBeNull();
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByTestId('gto-submission-form');
  });
});
