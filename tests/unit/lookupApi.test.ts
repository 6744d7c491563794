import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { getClients, getMalls, getOutlets } from '../../src/api/lookup';
import { clearSession, setPermissionsList } from '../../src/api/session';

function clientAnswering(status: number, body: unknown) {
  const requests: Request[] = [];
  const client = createApiClient(
    async (request) => {
      requests.push(request);
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    },
    { baseUrl: 'http://localhost' },
  );
  return { client, requests };
}

describe('lookup calls', () => {
  beforeEach(() => setPermissionsList(['/clients::Read', '/outlets::Read', '/malls::Read']));
  afterEach(() => clearSession());

  it('GET /clients', async () => {
    const { client, requests } = clientAnswering(200, [{ id: 1, name: 'Acme' }]);
    expect(await getClients({ client })).toEqual([{ id: 1, name: 'Acme' }]);
    expect(new URL(requests[0]?.url ?? '').pathname).toBe('/clients');
  });

  it('GET /outlets with the client id', async () => {
    const outlet = { id: 12, name: 'Kopi', type: 1, currency: 'SGD', mall_id: 1, outlet_code: null };
    const { client, requests } = clientAnswering(200, [outlet]);
    expect(await getOutlets(3, { client })).toEqual([outlet]);
    const url = new URL(requests[0]?.url ?? '');
    expect(url.pathname).toBe('/outlets');
    expect(url.searchParams.get('client_id')).toBe('3');
  });

  it('GET /malls with the client id', async () => {
    const mall = { id: 1, name: 'Central', currency: 'SGD', time_zone: 'Asia/Singapore', country: 'SG' };
    const { client, requests } = clientAnswering(200, [mall]);
    expect(await getMalls(3, { client })).toEqual([mall]);
    expect(new URL(requests[0]?.url ?? '').search).toBe('?client_id=3');
  });

  it('throws the server message of a failure', async () => {
    const body = { statusCode: 400, error: 'Bad Request', message: 'client_id is wrong' };
    const { client } = clientAnswering(400, body);
    await expect(getMalls(3, { client })).rejects.toEqual(new ApiError(400, 'client_id is wrong', body));
  });
});
