import { act, cleanup, configure, fireEvent, screen, waitFor } from '@testing-library/react';
import Highcharts from 'highcharts';
import JSZip from 'jszip';
import type { ComponentType } from 'react';
import { useEffect, useState } from 'react';
import { expect, vi } from 'vitest';
import type { Actor } from 'xstate';
import type { UserInfo } from '../../src/api/auth';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { FilterPageConfig } from '../../src/domain/filterHeader';
import { filterHeaderMachine } from '../../src/machines/filterHeaderMachine';
import type { PageHeaderKind } from '../../src/views/pages/pageProps';
import { HeaderProbe } from './headerProbe';
import { renderInApp, userInfo } from './renderApp';

export { deferred } from '../support/deferred';

/*
 * The Shopper Connect report pages as the signed-in app shows them: the real filter header machine (its malls
 * and outlets lookups and the pages' report calls all go through the app's one api client), the real report
 * machines and the app's toasts. The network is a fetch handler installed on globalThis (the api client looks
 * fetch up at call time); every request is recorded.
 *
 * jsdom has no fetch of its own: vitest puts Node's Request in, which (unlike a browser's) cannot resolve the
 * same-origin relative URLs the app's client builds ('/api/mall_report/daily?...'). openapi-fetch takes
 * `globalThis.Request` when the client is created, that is when src/api/client.ts is first imported, so each test
 * file using this harness replaces it with a subclass resolving against the document's URL (what a browser does)
 * inside `vi.hoisted`, which runs before the file's imports.
 */

// Drawing a page's charts in jsdom takes a while (the first page of a file most): wait up to 5 s, not 1 s.
configure({ asyncUtilTimeout: 5_000 });

export const TODAY = '2024-03-15';
/** The default committed range: the last 7 days up to TODAY. */
export const RANGE = { start: '2024-03-09', end: '2024-03-15' } as const;
/** The same length just before RANGE (the mall home's KPI comparison). */
export const PREVIOUS_RANGE = { start: '2024-03-02', end: '2024-03-08' } as const;
export const CLIENT_ID = 3;
/** The query every report call of the default filters carries (both malls, the whole day). */
export const BASE = {
  client_id: String(CLIENT_ID),
  mall_ids: ['1', '2'],
  start_time: RANGE.start,
  end_time: RANGE.end,
  start_hour: '0',
  end_hour: '23',
};
/** The range part of export file names. */
export const FILE_RANGE = `${RANGE.start}_${RANGE.end}`;
export const MALLS = [
  { id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
  { id: 2, name: 'East', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' },
];
export const OUTLETS = [{ id: 12, name: 'Kopi Corner', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null }];

export const PERMISSIONS = [
  '/api/mall_report/*::Read',
  // The breakeven targets a department sets.
  '/api/mall_report/breakeven_target::Update',
  '/malls::Read',
  '/outlets::Read',
  '/clients::Read',
];
export const USER: UserInfo = userInfo({ client_id: CLIENT_ID, clients: [CLIENT_ID], permissionsList: PERMISSIONS });

/* ---------------------------------------------------------------- the fake network */

/** One request the pages made: its path and query (repeated parameters as arrays). */
export interface RecordedCall {
  readonly path: string;
  readonly query: URLSearchParams;
}

export type Answer = { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;
/** Answers a /api/mall_report/* call; undefined = 404. */
export type ReportHandler = (call: RecordedCall) => Answer | undefined;

export interface FakeNetwork {
  readonly calls: RecordedCall[];
  /** The report calls (under /api/mall_report/) in the order they were made. */
  reportCalls(): RecordedCall[];
  /** Replaces how the report calls are answered. */
  answerReports(handler: ReportHandler): void;
}

export const ok = (body: unknown) => ({ status: 200, body });
export const serverError = () => ({
  status: 500,
  body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' },
});

/** Installs the fetch handler: lookups answer MALLS (or `malls`) and OUTLETS, reports answer `handler`. */
export function installNetwork(handler: ReportHandler, malls: readonly unknown[] = MALLS): FakeNetwork {
  const calls: RecordedCall[] = [];
  let reports = handler;
  const fetchImpl = vi.fn(async (request: Request) => {
    const url = new URL(request.url);
    const call = { path: url.pathname, query: url.searchParams };
    calls.push(call);
    let answer: Answer | undefined;
    if (url.pathname === '/malls') answer = ok(malls);
    else if (url.pathname === '/outlets') answer = ok(OUTLETS);
    else if (url.pathname.startsWith('/api/mall_report/')) answer = reports(call);
    const { status, body } = (await answer) ?? { status: 404, body: { statusCode: 404, message: 'Not Found' } };
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchImpl);
  return {
    calls,
    reportCalls: () => calls.filter((call) => call.path.startsWith('/api/mall_report/')),
    answerReports: (next) => {
      reports = next;
    },
  };
}

/* ---------------------------------------------------------------- rendering */

export interface PageHarness {
  header(): Actor<typeof filterHeaderMachine>;
  /** Unmounts the page (as navigating away does), keeping the filter header that outlives it. */
  leavePage(): void;
}

export function renderReportPage(
  Page: ComponentType<{ title: string; header?: PageHeaderKind }>,
  options: {
    title: string;
    header: PageHeaderKind;
    page?: Partial<FilterPageConfig>;
    /** The user's `path::Action` pairs; PERMISSIONS by default. */
    permissions?: readonly string[];
  },
): PageHarness {
  const permissions = options.permissions ?? PERMISSIONS;
  setPermissionsList(permissions);
  let headerActor: Actor<typeof filterHeaderMachine> | undefined;
  const headerLogic = filterHeaderMachine.provide({
    actions: { writeUrl: () => undefined, writeCookies: () => undefined },
  });
  let showPage: ((shown: boolean) => void) | undefined;
  function PageSlot() {
    const [shown, setShown] = useState(true);
    useEffect(() => {
      showPage = setShown;
    }, []);
    return shown ? <Page title={options.title} header={options.header} /> : null;
  }
  renderInApp(
    <>
      <HeaderProbe onActor={(actor) => (headerActor = actor)} />
      <PageSlot />
    </>,
    {
      user: { ...USER, permissionsList: [...permissions] },
      path: '/shopper-connect/mall-home',
      today: TODAY,
      header: headerLogic,
      pageFilters: () => ({ outletMode: 'disabled', ...options.page }),
    },
  );
  return {
    header: () => {
      if (!headerActor) throw new Error('the filter header is not mounted');
      return headerActor;
    },
    leavePage: () => {
      act(() => showPage?.(false));
    },
  };
}

/** Picks the 'Last 30 days' quick range in the date-range picker and applies it. */
export function chooseLast30Days(): void {
  fireEvent.click(screen.getByTestId('date-range-button'));
  fireEvent.click(screen.getByLabelText('Last 30 days'));
  fireEvent.click(screen.getByTestId('date-range-apply'));
}

/** Unmounts, removes the stubs and clears the session: every test file's afterEach. */
export function tearDownReportPage(): void {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  resetSession();
}

export function resetSession(): void {
  clearSession();
}

/* ---------------------------------------------------------------- reading what is shown */

/** The Highcharts chart drawn inside the element with this test id. */
export function chartIn(testId: string): Highcharts.Chart {
  const container = screen.getByTestId(testId);
  const chart = Highcharts.charts.find(
    (candidate) => candidate !== undefined && container.contains(candidate.container),
  );
  if (!chart) throw new Error(`no chart drawn in ${testId}`);
  return chart;
}

/** The x axis labels a chart draws inside the element with this test id, as the user reads them. */
export function xAxisLabels(testId: string): string[] {
  return [...screen.getByTestId(testId).querySelectorAll('.highcharts-xaxis-labels text')].map(
    (label) => label.textContent ?? '',
  );
}

/** The y values of a chart's series. */
export function seriesValues(chart: Highcharts.Chart, index = 0): (number | null | undefined)[] {
  const series = chart.series[index];
  if (!series) throw new Error(`the chart has no series ${index}`);
  return series.points.map((point) => point.y);
}

/** Cell texts of a table's body rows. */
export function bodyRows(table: HTMLElement): string[][] {
  return [...table.querySelectorAll('tbody tr')].map((row) =>
    [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? ''),
  );
}

/** Header cell texts of a table. */
export function headerCells(table: HTMLElement): string[] {
  return [...table.querySelectorAll('thead th')].map((cell) => (cell.textContent ?? '').trim());
}

/** The table inside a report block (the one beside its chart), or the table with that test id. */
export function tableIn(testId: string): HTMLElement {
  const element = screen.getByTestId(testId);
  const table = element.tagName === 'TABLE' ? element : element.querySelector('table');
  if (!table) throw new Error(`no table in ${testId}`);
  return table;
}

/** A call's query as an object (mall_ids, repeated, as an array). */
export function paramsOf(call: RecordedCall): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const key of new Set(call.query.keys())) {
    params[key] = key === 'mall_ids' ? call.query.getAll(key) : (call.query.get(key) ?? '');
  }
  return params;
}

/** The calls as `{ path, params }`, in a stable order (the pages make theirs in parallel). */
export function describeCalls(
  calls: readonly RecordedCall[],
): { path: string; params: Record<string, string | string[]> }[] {
  return sortedCalls(calls.map((call) => ({ path: call.path, params: paramsOf(call) })));
}

const callKey = (call: { path: string; params: Record<string, string | string[]> }) =>
  `${call.path}?${Object.entries(call.params)
    .map(([key, value]) => `${key}=${String(value)}`)
    .sort()
    .join('&')}`;

/** Expected calls in the order of describeCalls. */
export function sortedCalls(calls: { path: string; params: Record<string, string | string[]> }[]) {
  return [...calls].sort((a, b) => callKey(a).localeCompare(callKey(b)));
}

/** The texts of the toasts shown. */
export function toastTexts(): string[] {
  return [...document.querySelectorAll('.bp6-toast')].map((toast) => toast.textContent ?? '');
}

/** Waits until the page's report has been drawn (no spinner, export enabled). */
export async function waitForReport(): Promise<void> {
  await waitFor(() => expect(screen.getByTestId('export-csv').hasAttribute('disabled')).toBe(false));
  expect(screen.queryByTestId('report-loading')).toBeNull();
}

/** Waits until the filter header's lookups are in (the malls select can be opened). */
export async function waitForLookups(): Promise<void> {
  await waitFor(() => expect(screen.getByTestId('malls-select')).toHaveProperty('disabled', false));
}

/* ---------------------------------------------------------------- downloads */

export interface Download {
  readonly fileName: string;
  readonly blob: Blob;
  /** The object URL the link pointed at. */
  readonly url: string;
}

/**
 * Stubs what a download needs in jsdom: URL.createObjectURL (keeps the Blob), URL.revokeObjectURL and the
 * anchor click (records the file name instead of navigating).
 */
export function captureDownloads(): Download[] {
  const downloads: Download[] = [];
  const blobs = new Map<string, Blob>();
  let next = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob: Blob | MediaSource) => {
    next += 1;
    const url = `blob:http://localhost/${next}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) downloads.push({ fileName: this.download, blob, url: this.href });
  });
  return downloads;
}

export async function blobBytes(blob: Blob): Promise<Uint8Array> {
  if (typeof blob.arrayBuffer === 'function') return new Uint8Array(await blob.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

/** The text of a CSV download, which must start with the UTF-8 BOM (issue 29); the BOM is not part of the text. */
export async function blobText(blob: Blob): Promise<string> {
  const bytes = await blobBytes(blob);
  if (![0xef, 0xbb, 0xbf].every((byte, index) => bytes[index] === byte)) {
    throw new Error('the CSV file does not start with the UTF-8 BOM');
  }
  return new TextDecoder().decode(bytes.slice(3));
}

/**
 * The files of a zip download: name → CSV lines (CRLF split, the trailing empty line dropped). Each file must start
 * with the UTF-8 BOM (issue 29), which is not part of its first line.
 */
export async function unzip(blob: Blob): Promise<Record<string, string[]>> {
  const zip = await JSZip.loadAsync(await blobBytes(blob));
  const files: Record<string, string[]> = {};
  for (const name of Object.keys(zip.files).sort()) {
    const file = zip.file(name);
    if (!file) throw new Error(`no ${name} in the zip`);
    const text = await file.async('string');
    if (!text.startsWith('\uFEFF')) throw new Error(`${name} does not start with the UTF-8 BOM`);
    files[name] = text
      .slice(1)
      .split('\r\n')
      .filter((line, index, lines) => !(line === '' && index === lines.length - 1));
  }
  return files;
}

/** Clicks Export CSV and waits for the download. */
export async function exportDownload(downloads: Download[], click: () => void): Promise<Download> {
  const before = downloads.length;
  await act(async () => {
    click();
  });
  await waitFor(() => expect(downloads.length).toBe(before + 1));
  const download = downloads.at(-1);
  if (!download) throw new Error('no download');
  return download;
}
