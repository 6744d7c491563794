import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { downloadMallHomeWorkbook, WORKBOOK_MEDIA_TYPE } from '../../src/api/mallReports';
import { downloadTransactionsPdf } from '../../src/api/receipts';
import { clearSession, setPermissionsList } from '../../src/api/session';

/*
 * The streamed downloads (the receipts PDF, the Mall Home workbook) read through one reader: the bytes with their
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
const WORKBOOK_QUERY: Parameters<typeof downloadMallHomeWorkbook>[0] = {
  clientId: 1,
  mallIds: [1],
  start: '2024-03-01',
  end: '2024-03-07',
  startHour: 0,
  endHour: 23,
  timeRange: 'daily',
  metric: 'gmv',
};

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
    const error = await downloadMallHomeWorkbook(WORKBOOK_QUERY, () => undefined, { client }).catch((caught) => caught);
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
    const workbook = await downloadMallHomeWorkbook(WORKBOOK_QUERY, () => undefined, {
      client: clientAnswering(() => new Response(bytes, { headers: { 'Content-Type': WORKBOOK_MEDIA_TYPE } })),
    });
    expect(workbook.type).toBe(WORKBOOK_MEDIA_TYPE);
  });
});
