import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { downloadReportWorkbook, WORKBOOK_MEDIA_TYPE } from '../../src/api/mallReports';
import { downloadTransactionsPdf } from '../../src/api/receipts';
import { clearSession, setPermissionsList } from '../../src/api/session';

/*
 * The streamed downloads (the receipts PDF, a report page's workbook) read through one reader: the bytes with their
 * progress, and a refusal with the server's own reason (openapi-fetch has read a refusal's body before the caller
 * sees the answer, so the reason comes from its error, not from the body again).
 */

const ORIGIN = 'http://localhost';
const BUSY = 'Too many exports are running. Try again in a minute.';

const clientAnswering = (answer: () => Response) => createApiClient(async () => answer(), { baseUrl: ORIGIN });
const refusal = () =>
  new Response(JSON.stringify({ statusCode: 429, error: 'Too Many Requests', message: BUSY }), {
    status: 429,
    headers: { 'Content-Type': 'application/json' },
  });

const PDF_QUERY: Parameters<typeof downloadTransactionsPdf>[0] = {
  client_id: 1,
  id: '2',
  startTime: '2024-03-01',
  endTime: '2024-03-07',
};
const WORKBOOK_QUERY: Parameters<typeof downloadReportWorkbook>[1] = {
  clientId: 1,
  mallIds: [1],
  start: '2024-03-01',
  end: '2024-03-07',
  startHour: 0,
  endHour: 23,
  timeRange: 'daily',
  metric: 'gmv',
};

/** A client that records the request it is asked and answers a workbook's bytes. */
function recordingWorkbookClient(): { client: ReturnType<typeof createApiClient>; asked: URL[] } {
  const asked: URL[] = [];
  const client = createApiClient(
    async (request) => {
      asked.push(new URL(request.url));
      return new Response(new Uint8Array([0x50, 0x4b]), { headers: { 'Content-Type': WORKBOOK_MEDIA_TYPE } });
    },
    { baseUrl: ORIGIN },
  );
  return { client, asked };
}

afterEach(() => clearSession());

describe('streamed downloads', () => {
  it('a refused PDF throws the server’s reason, not the status', async () => {
    setPermissionsList(['*::*']);
    const client = clientAnswering(refusal);
    const error = await downloadTransactionsPdf(PDF_QUERY, () => undefined, { client }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, serverMessage: BUSY, message: BUSY });
  });

  it('a refused workbook throws the server’s reason', async () => {
    setPermissionsList(['*::*']);
    const client = clientAnswering(refusal);
    const error = await downloadReportWorkbook('mall_home', WORKBOOK_QUERY, () => undefined, { client }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ status: 429, serverMessage: BUSY });
  });

  it('reads the bytes with their progress, the receipts counted from the header', async () => {
    setPermissionsList(['*::*']);
    const bytes = new Uint8Array(3_000).fill(7);
    const client = clientAnswering(
      () =>
        new Response(bytes, {
          headers: { 'Content-Type': 'application/pdf', 'Content-Length': '3000', 'X-Receipt-Count': '12' },
        }),
    );
    const seen: { received: number; size: number | undefined; count: number | undefined }[] = [];
    const blob = await downloadTransactionsPdf(PDF_QUERY, (progress) => seen.push(progress), { client });
    expect(blob.type).toBe('application/pdf');
    expect(blob.size).toBe(3_000);
    expect(seen[0]).toEqual({ received: 0, size: 3_000, count: 12 });
    expect(seen.at(-1)).toEqual({ received: 3_000, size: 3_000, count: 12 });
    const workbook = await downloadReportWorkbook('mall_home', WORKBOOK_QUERY, () => undefined, {
      client: clientAnswering(() => new Response(bytes, { headers: { 'Content-Type': WORKBOOK_MEDIA_TYPE } })),
    });
    expect(workbook.type).toBe(WORKBOOK_MEDIA_TYPE);
  });

  it('asks the chosen page’s workbook: Peak Hours with the hours, time range and metric, Mall GMV of whole days', async () => {
    setPermissionsList(['*::*']);
    const peak = recordingWorkbookClient();
    const query = {
      ...WORKBOOK_QUERY,
      startHour: 9,
      endHour: 18,
      timeRange: 'weekly',
      metric: 'transactions',
    } as const;
    const peakWorkbook = await downloadReportWorkbook('peak_hours', query, () => undefined, { client: peak.client });
    expect(peakWorkbook.type).toBe(WORKBOOK_MEDIA_TYPE);
    expect(peak.asked.map((url) => url.pathname)).toEqual(['/api/mall_report/peak_hour/workbook']);
    const peakParams = peak.asked[0]?.searchParams;
    expect(peakParams?.get('client_id')).toBe('1');
    expect(peakParams?.getAll('mall_ids')).toEqual(['1']);
    expect([peakParams?.get('start_time'), peakParams?.get('end_time')]).toEqual(['2024-03-01', '2024-03-07']);
    expect([peakParams?.get('start_hour'), peakParams?.get('end_hour')]).toEqual(['9', '18']);
    expect([peakParams?.get('time_range'), peakParams?.get('metric')]).toEqual(['weekly', 'transactions']);

    const gmv = recordingWorkbookClient();
    await downloadReportWorkbook('mall_gmv', query, () => undefined, { client: gmv.client });
    expect(gmv.asked.map((url) => url.pathname)).toEqual(['/api/mall_report/mall_gmv/workbook']);
    const gmvParams = gmv.asked[0]?.searchParams;
    expect(gmvParams?.get('client_id')).toBe('1');
    expect([gmvParams?.get('start_time'), gmvParams?.get('end_time')]).toEqual(['2024-03-01', '2024-03-07']);
    for (const hourly of ['start_hour', 'end_hour', 'time_range', 'metric']) expect(gmvParams?.has(hourly)).toBe(false);
  });
});
