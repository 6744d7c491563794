import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MallHomePage } from '../../src/views/pages/shopper-connect/MallHomePage';
import {
  NO_BROWSER_MESSAGE,
  RECIPIENTS,
  RENDERING_OFF,
  RENDERING_ON,
  SUBSCRIPTION,
  SUBSCRIPTION_PERMISSIONS,
} from '../support/reportSubscriptions';
import {
  installNetwork,
  PERMISSIONS,
  RANGE,
  renderReportPage,
  tearDownReportPage,
  toastTexts,
} from './mallReportHarness';

/*
 * The report toolbar's Subscribe on Mall Home inside the app (the real filter header, page and dialog machines, the
 * app's api client; the network answered here): offered only with the permission to make subscriptions, it opens
 * the dialog on the page's path and the header's committed filters, reads the recipients, and saves. A server
 * without a browser is said in the dialog, which then saves nothing.
 */

afterEach(tearDownReportPage);

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

/** The report calls fail (the toolbar does not wait for them); the subscription calls answer as given. */
function installSubscriptionNetwork(rendering: typeof RENDERING_ON, save = { status: 200, body: SUBSCRIPTION }) {
  installNetwork(() => undefined);
  const reports = globalThis.fetch;
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    if (!url.pathname.startsWith('/api/reportSubscriptions')) return reports(request);
    const text = request.method === 'GET' ? '' : await request.clone().text();
    sent.push({
      method: request.method,
      path: `${url.pathname}${url.search}`,
      body: text ? JSON.parse(text) : undefined,
    });
    const answer =
      url.pathname === '/api/reportSubscriptions/recipients'
        ? { status: 200, body: { data: RECIPIENTS } }
        : request.method === 'GET'
          ? { status: 200, body: { data: [], rendering } }
          : save;
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return sent;
}

const renderMallHome = (permissions: readonly string[]) =>
  renderReportPage(MallHomePage, { title: 'Mall Home', header: 'mall', permissions });

describe("the report toolbar's Subscribe", () => {
  it('is not offered without the permission to make subscriptions', async () => {
    installSubscriptionNetwork(RENDERING_ON);
    renderMallHome(PERMISSIONS);
    await waitFor(() => expect(screen.getByTestId('export-csv')).toBeTruthy());
    expect(screen.queryByTestId('report-subscribe')).toBeNull();
  });

  it("subscribes the page with the header's filters, both formats and the chosen recipient", async () => {
    const sent = installSubscriptionNetwork(RENDERING_ON);
    renderMallHome([...PERMISSIONS, ...SUBSCRIPTION_PERMISSIONS]);
    await waitFor(() => expect(screen.getByTestId('report-subscribe').hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByTestId('report-subscribe'));
    const form = await screen.findByTestId('subscription-form');
    await waitFor(() => expect(within(form).getAllByTestId('subscription-recipient')).toHaveLength(2));
    expect((within(form).getByTestId('subscription-name') as HTMLInputElement).value).toBe('Mall Home');
    expect((within(form).getByTestId('subscription-format-pdf') as HTMLInputElement).checked).toBe(true);
    expect((within(form).getByTestId('subscription-format-workbook') as HTMLInputElement).checked).toBe(true);
    const save = within(form).getByTestId('subscription-save');
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.click(within(form).getAllByTestId('subscription-recipient')[0] as HTMLElement);
    fireEvent.change(within(form).getByTestId('subscription-frequency'), { target: { value: 'weekly' } });
    fireEvent.change(within(form).getByTestId('subscription-weekday'), { target: { value: '5' } });
    await waitFor(() => expect(save.hasAttribute('disabled')).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(screen.queryByTestId('subscription-form')).toBeNull());
    expect(toastTexts()).toContain('Save Successfully.');
    const created = sent.find((call) => call.method === 'POST');
    expect(created?.body).toEqual({
      client_id: 3,
      name: 'Mall Home',
      page_path: '/shopper-connect/mall-home',
      filters: `client=3&malls=1,2&outlet=all&from=${RANGE.start}&to=${RANGE.end}`,
      formats: ['pdf', 'workbook'],
      frequency: 'weekly',
      weekday: 5,
      month_day: null,
      hour: 8,
      recipient_ids: [RECIPIENTS[0]?.id],
      active: true,
    });
  });

  it('says so when the server has no browser, and saves nothing', async () => {
    const sent = installSubscriptionNetwork(RENDERING_OFF);
    renderMallHome([...PERMISSIONS, ...SUBSCRIPTION_PERMISSIONS]);
    await waitFor(() => expect(screen.getByTestId('report-subscribe').hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByTestId('report-subscribe'));
    const unavailable = await screen.findByTestId('subscription-unavailable');
    expect(unavailable.textContent).toContain(NO_BROWSER_MESSAGE);
    expect(screen.getByTestId('subscription-save').hasAttribute('disabled')).toBe(true);
    expect(sent.filter((call) => call.method !== 'GET')).toEqual([]);
  });
});
