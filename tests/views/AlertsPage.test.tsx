import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlertFiring, AlertRule, AlertRuleList } from '../../src/api/alertRules';
import { setPermissionsList } from '../../src/api/session';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import { AlertsPage } from '../../src/views/pages/shopper-connect/AlertsPage';
import { MallHomePage } from '../../src/views/pages/shopper-connect/MallHomePage';
import {
  bodyRows,
  installNetwork,
  ok,
  PERMISSIONS,
  renderReportPage,
  tableIn,
  tearDownReportPage,
  toastTexts,
  waitForReport,
} from './mallReportHarness';
import { renderInApp, userInfo } from './renderApp';

/*
 * The Alerts page (issue 34) inside the app, with the real filter header, page machine and the app's one api client;
 * the network is a fetch handler answering what each test gives it. Client 1's malls Orchard Point and Harbourfront
 * (Singapore), the signed-in user Alice (id 3). Then Mall Home's 'Alert me when…': offered only to a user who may
 * add a rule, it opens the same editor with the page's malls and the user as recipient, and saves.
 */

type Answer = { status: number; body: unknown };

const MALLS = [
  { id: 1, name: 'Orchard Point', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
  { id: 2, name: 'Harbourfront', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
];
const OUTLETS = [
  { id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null },
  { id: 13, name: 'Atlas Books', type: 1, currency: 'SGD', mall_id: 2, outlet_code: null },
];
const LONG_NAME = 'Orchard Point weekday GMV below the usual for the whole food court';
const RULE: AlertRule = {
  id: 7,
  name: LONG_NAME,
  metric: 'gmv',
  mall_ids: [1],
  category: null,
  outlet_ids: [],
  condition_kind: 'below',
  condition_value: 1000,
  weeks: 4,
  schedule_kind: 'daily',
  schedule_time: '08:00',
  recipient_ids: [3],
  active: true,
  created_by: 'Alice',
  time_zone: 'Asia/Singapore',
  currency: 'SGD',
  firing_count: 1,
  last_fired_at: '2026-03-11T00:05:00Z',
};
const LIST: AlertRuleList = {
  rules: [RULE],
  categories: [
    { mall_id: 1, name: 'F&B' },
    { mall_id: 2, name: 'Books' },
  ],
  recipients: [
    { id: 3, email: 'alice@mall.example', name: 'Alice' },
    { id: 4, email: 'ben@mall.example', name: null },
  ],
};
const FIRING: AlertFiring = {
  id: 70,
  rule_id: 7,
  period_key: '2026-03-10',
  period_start: '2026-03-09T16:00:00Z',
  period_end: '2026-03-10T16:00:00Z',
  value: 512.5,
  compared_value: 1000,
  compared_start: null,
  compared_end: null,
  currency: 'SGD',
  fired_at: '2026-03-11T00:05:00Z',
  acknowledged_by: null,
  acknowledged_at: null,
};
const SERVER_ERROR: Answer = {
  status: 500,
  body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' },
};

/** The answers of the alert rules' calls, by method and path. */
let answers: Record<string, () => Promise<Answer> | Answer>;
let asked: { method: string; url: URL; body: unknown }[];

/** Answers the alert rules' calls from `answers`; any other call goes to `next`. */
function alertRulesFetch(next: (request: Request) => Promise<Response>) {
  return async (request: Request) => {
    const url = new URL(request.url);
    if (!url.pathname.startsWith('/api/alertRules')) return next(request);
    const body = request.method === 'GET' || request.method === 'DELETE' ? undefined : await request.json();
    asked.push({ method: request.method, url, body });
    const answer = answers[`${request.method} ${url.pathname}`];
    const given = answer ? await answer() : { status: 404, body: { statusCode: 404, message: 'Not Found' } };
    return new Response(JSON.stringify(given.body), {
      status: given.status,
      headers: { 'Content-Type': 'application/json' },
    });
  };
}

beforeEach(() => {
  asked = [];
  answers = { 'GET /api/alertRules': () => ({ status: 200, body: LIST }) };
});

afterEach(tearDownReportPage);

const header = filterHeaderMachine.provide({ actions: { writeUrl: () => undefined, writeCookies: () => undefined } });

function render(): void {
  vi.stubGlobal(
    'fetch',
    alertRulesFetch(async (request) => {
      const path = new URL(request.url).pathname;
      const body = path === '/malls' ? MALLS : path === '/outlets' ? OUTLETS : undefined;
      return new Response(JSON.stringify(body ?? { statusCode: 404, message: 'Not Found' }), {
        status: body ? 200 : 404,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  setPermissionsList(['*::*']);
  renderInApp(<AlertsPage title="Alerts" header="mall" />, {
    user: userInfo({
      client_id: 1,
      clients: [1],
      permissions: [{ name: 'shopper-connect', subPermissions: ['alerts'] }],
      permissionsList: ['*::*'],
    }),
    path: '/shopper-connect/alerts',
    today: '2026-03-11',
    header,
  });
}

const rulesTable = () => tableIn('alerts-page');
const historyPanel = () => screen.getByTestId('alert-history-panel');

describe('the Alerts page', () => {
  it('shows a skeleton while loading, then the rules; the history shows a firing and acknowledges it', async () => {
    let release: (given: Answer) => void = () => undefined;
    answers['GET /api/alertRules'] = () => new Promise<Answer>((resolve) => (release = resolve));
    render();
    await waitFor(() => expect(screen.getAllByTestId('alerts-skeleton-row').length).toBeGreaterThan(0));
    expect(asked.map(({ url }) => url.search)).toEqual(['?client_id=1']);
    release({ status: 200, body: LIST });
    await waitFor(() => expect(screen.getAllByTestId('alert-rule-row')).toHaveLength(1));
    expect(bodyRows(rulesTable())[0]?.slice(0, 7)).toEqual([
      LONG_NAME,
      'GMV',
      'GMV below $1,000.00',
      'Daily at 08:00',
      'Active',
      '1',
      '2026-03-11 08:05:00',
    ]);

    answers['GET /api/alertRules/firings'] = () => ({ status: 200, body: { firings: [FIRING] } });
    fireEvent.click(screen.getByTestId('alert-history'));
    await waitFor(() => expect(within(historyPanel()).getAllByTestId('alert-firing-row')).toHaveLength(1));
    expect(within(historyPanel()).getByText(`History of ${LONG_NAME}`)).toBeTruthy();
    const [firing] = bodyRows(tableIn('alert-history-panel'));
    expect(firing?.slice(0, 4)).toEqual(['2026-03-10', '$512.50', '$1,000.00', '2026-03-11 08:05:00']);

    answers['PUT /api/alertRules/firings/acknowledge'] = () => ({
      status: 200,
      body: { ...FIRING, acknowledged_by: 'Alice', acknowledged_at: '2026-03-11T01:00:00Z' },
    });
    fireEvent.click(within(historyPanel()).getByTestId('alert-acknowledge'));
    await waitFor(() => expect(within(historyPanel()).queryByTestId('alert-acknowledge')).toBeNull());
    expect(bodyRows(tableIn('alert-history-panel'))[0]?.[4]).toBe('Alice, 2026-03-11 09:00:00');
    expect(asked.at(-1)?.body).toEqual({ client_id: 1, id: 70 });
    await waitFor(() => expect(toastTexts()).toContain('Firing has been acknowledged.'));
  });

  it('fails its list with the toast and a retry, and loads again', async () => {
    answers['GET /api/alertRules'] = () => SERVER_ERROR;
    render();
    await waitFor(() => expect(toastTexts()).toContain('Alert rules error occurs. Please try again later.'));
    expect(screen.getByText('The alert rules could not be read.')).toBeTruthy();
    answers['GET /api/alertRules'] = () => ({ status: 200, body: LIST });
    fireEvent.click(screen.getByTestId('alerts-retry'));
    await waitFor(() => expect(screen.getAllByTestId('alert-rule-row')).toHaveLength(1));
  });

  it('adds a rule: the header’s malls and outlets as its scope, the signed-in user as its recipient', async () => {
    render();
    await waitFor(() => expect(screen.getAllByTestId('alert-rule-row')).toHaveLength(1));
    fireEvent.click(screen.getByTestId('alerts-new'));
    const editor = await screen.findByTestId('alert-editor');
    const mall = (name: string) => within(editor).getByLabelText(name) as HTMLInputElement;
    await waitFor(() => expect(mall('Orchard Point').checked).toBe(true));
    expect(mall('Harbourfront').checked).toBe(true);
    expect((within(editor).getByLabelText('Alice') as HTMLInputElement).checked).toBe(true);
    expect((within(editor).getByLabelText('ben@mall.example') as HTMLInputElement).checked).toBe(false);
    const outlet = within(editor).getByTestId('alert-outlet') as HTMLSelectElement;
    expect([...outlet.options].map((option) => option.text)).toEqual(['All outlets', 'Kopi Corner', 'Atlas Books']);

    // One mall: its outlets only; a problem is shown at its field.
    fireEvent.click(mall('Harbourfront'));
    expect([...outlet.options].map((option) => option.text)).toEqual(['All outlets', 'Kopi Corner']);
    fireEvent.change(outlet, { target: { value: '12' } });
    // The categories of the chosen malls' outlets, never free text that matches none.
    const category = within(editor).getByTestId('alert-category') as HTMLSelectElement;
    expect([...category.options].map((option) => option.text)).toEqual(['All categories', 'F&B']);
    fireEvent.change(category, { target: { value: 'F&B' } });
    fireEvent.click(screen.getByTestId('alert-save'));
    expect(within(editor).getByText('Please enter a name.')).toBeTruthy();
    fireEvent.change(within(editor).getByTestId('alert-name'), { target: { value: 'Kopi quiet' } });
    fireEvent.change(within(editor).getByTestId('alert-value'), { target: { value: '250' } });

    answers['POST /api/alertRules'] = () => ({ status: 200, body: { ...RULE, id: 8, name: 'Kopi quiet' } });
    fireEvent.click(screen.getByTestId('alert-save'));
    await waitFor(() => expect(screen.queryByTestId('alert-editor')).toBeNull());
    expect(asked.find(({ method }) => method === 'POST')?.body).toEqual({
      client_id: 1,
      name: 'Kopi quiet',
      metric: 'gmv',
      mall_ids: [1],
      category: 'F&B',
      outlet_ids: '12',
      condition_kind: 'below',
      condition_value: 250,
      weeks: 4,
      schedule_kind: 'daily',
      schedule_time: '08:00',
      recipient_ids: [3],
      active: true,
    });
    await waitFor(() => expect(toastTexts()).toContain('Save Successfully.'));
    // The rules are read again.
    await waitFor(() => expect(asked.filter(({ method }) => method === 'GET')).toHaveLength(2));
  });

  it('shows the server’s refusal at the field it names, and keeps the draft', async () => {
    const refusal = 'the malls of a rule must share one time zone and one currency.';
    answers['POST /api/alertRules'] = () => ({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: `mall_ids: ${refusal}` },
    });
    render();
    await waitFor(() => expect(screen.getAllByTestId('alert-rule-row')).toHaveLength(1));
    fireEvent.click(screen.getByTestId('alerts-new'));
    const editor = await screen.findByTestId('alert-editor');
    fireEvent.change(within(editor).getByTestId('alert-name'), { target: { value: 'Both malls' } });
    fireEvent.click(screen.getByTestId('alert-save'));
    await waitFor(() => expect(within(editor).getByText(refusal)).toBeTruthy());
    expect(within(editor).queryByTestId('alert-save-error')).toBeNull();
    expect((within(editor).getByTestId('alert-name') as HTMLInputElement).value).toBe('Both malls');
    await waitFor(() => expect(toastTexts()).toContain('Save Failed.'));
  });

  it('closes the history of a rule when the rule is deleted', async () => {
    answers['GET /api/alertRules/firings'] = () => ({ status: 200, body: { firings: [FIRING] } });
    answers['DELETE /api/alertRules'] = () => ({ status: 200, body: { id: 7 } });
    render();
    await waitFor(() => expect(screen.getAllByTestId('alert-rule-row')).toHaveLength(1));
    fireEvent.click(screen.getByTestId('alert-history'));
    await waitFor(() => expect(within(historyPanel()).getAllByTestId('alert-firing-row')).toHaveLength(1));
    answers['GET /api/alertRules'] = () => ({ status: 200, body: { ...LIST, rules: [] } });
    fireEvent.click(screen.getByTestId('alert-delete'));
    expect((await screen.findByTestId('alert-delete-question')).textContent).toBe(
      `Delete ${LONG_NAME} and its history?`,
    );
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('alert-history-panel')).toBeNull());
    await waitFor(() =>
      expect(screen.getByTestId('alerts-empty').textContent).toBe(
        'Add one with New rule, or with Alert me when… on Mall Home.',
      ),
    );
    expect(toastTexts()).toContain(`${LONG_NAME} has been deleted successfully.`);
  });
});

describe('Mall Home’s Alert me when…', { timeout: 30_000 }, () => {
  /** Mall Home's own calls answered empty, the alert rules' from `answers`. */
  function renderMallHome(permissions: readonly string[]) {
    installNetwork(() => ok({ data: [] }));
    vi.stubGlobal('fetch', alertRulesFetch(globalThis.fetch));
    renderReportPage(MallHomePage, { title: 'Mall Home', header: 'mall', permissions });
  }

  it('is not offered to a user who may not add a rule', async () => {
    renderMallHome(PERMISSIONS);
    await waitForReport();
    expect(screen.queryByTestId('mall-home-alert-me')).toBeNull();
    expect(asked).toEqual([]);
  });

  it('opens the editor with the page’s malls and metric and the user as recipient, saves, links to Alerts', async () => {
    renderMallHome([...PERMISSIONS, '/api/alertRules::Read', '/api/alertRules::Create']);
    await waitForReport();
    fireEvent.click(screen.getByTestId('mall-home-alert-me'));
    const editor = await screen.findByTestId('alert-editor');
    expect(screen.getByRole('dialog', { name: 'Alert me when…' })).toBeTruthy();
    await waitFor(() => expect((within(editor).getByLabelText('Alice') as HTMLInputElement).checked).toBe(true));
    expect(asked.map(({ method, url }) => `${method} ${url.pathname}${url.search}`)).toEqual([
      'GET /api/alertRules?client_id=3',
    ]);
    expect((within(editor).getByLabelText('Central') as HTMLInputElement).checked).toBe(true);
    expect((within(editor).getByLabelText('East') as HTMLInputElement).checked).toBe(true);
    expect((within(editor).getByTestId('alert-metric') as HTMLSelectElement).value).toBe('gmv');

    fireEvent.change(within(editor).getByTestId('alert-name'), { target: { value: 'Busy day' } });
    fireEvent.change(within(editor).getByTestId('alert-condition'), { target: { value: 'above' } });
    fireEvent.change(within(editor).getByTestId('alert-value'), { target: { value: '5000' } });
    answers['POST /api/alertRules'] = () => ({ status: 200, body: { ...RULE, id: 9, name: 'Busy day' } });
    fireEvent.click(screen.getByTestId('alert-save'));
    await waitFor(() => expect(screen.queryByTestId('alert-editor')).toBeNull());
    expect(asked.find(({ method }) => method === 'POST')?.body).toMatchObject({
      client_id: 3,
      name: 'Busy day',
      metric: 'gmv',
      mall_ids: [1, 2],
      condition_kind: 'above',
      condition_value: 5000,
      recipient_ids: [3],
    });
    await waitFor(() => expect(toastTexts()).toContain('Save Successfully.Open Alerts'));
    expect(screen.getByRole('button', { name: 'Open Alerts' })).toBeTruthy();
  });
});
