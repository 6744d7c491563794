import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, type FetchImpl } from '../../src/api/client';
import { ApiRequestCancelled } from '../../src/api/middleware/permissionGate';
import { type ApiEvent, clearSession, onApiEvent, setCsrfToken, setPermissionsList } from '../../src/api/session';
import { RENDER_ONLY_MESSAGE } from '../../src/domain/messages';

// Node's Request (used under jsdom) cannot resolve relative URLs, so the tests give the origin.
const ORIGIN = 'http://localhost';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('api client', () => {
  let requests: Request[];
  let respond: (request: Request) => Response;
  let events: ApiEvent[];
  let unsubscribe: Array<() => void>;
  const fetchImpl = vi.fn<FetchImpl>(async (request) => {
    requests.push(request);
    return respond(request);
  });
  const client = createApiClient(fetchImpl, { baseUrl: ORIGIN });

  beforeEach(() => {
    requests = [];
    events = [];
    respond = () => json({ csrfToken: 'fresh' });
    fetchImpl.mockClear();
    clearSession();
    unsubscribe = [
      onApiEvent('unauthorized', (event) => events.push(event)),
      onApiEvent('forbidden', (event) => events.push(event)),
    ];
  });
  afterEach(() => {
    for (const stop of unsubscribe) stop();
    clearSession();
  });

  it('sends same-origin requests through the injected fetch', async () => {
    const { data } = await client.GET('/api/getcsrftoken');
    expect(data).toEqual({ csrfToken: 'fresh' });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe(`${ORIGIN}/api/getcsrftoken`);
    expect(requests[0]?.credentials).toBe('same-origin');
  });

  it('adds X-CSRF-Token to a POST', async () => {
    setCsrfToken('token-123');
    respond = () => json({ message: 'nope', statusCode: 401 }, 401);
    await client.POST('/api/login', { body: { username: 'a', password: 'b' } });
    expect(requests[0]?.method).toBe('POST');
    expect(requests[0]?.headers.get('X-CSRF-Token')).toBe('token-123');
  });

  it('adds X-CSRF-Token to a PUT', async () => {
    setCsrfToken('token-456');
    respond = () => json({ success: true });
    await client.PUT('/api/user/password', { body: { currentPassword: 'old-secret', newPassword: 'new-secret-1' } });
    expect(requests[0]?.headers.get('X-CSRF-Token')).toBe('token-456');
  });

  it('does not add X-CSRF-Token to a GET', async () => {
    setCsrfToken('token-123');
    await client.GET('/api/getcsrftoken');
    expect(requests[0]?.headers.has('X-CSRF-Token')).toBe(false);
  });

  it('cancels a call the permissions list does not allow, without calling fetch', async () => {
    setPermissionsList(['/malls::Read', '/outlets::Create']);
    await expect(client.GET('/clients')).rejects.toBeInstanceOf(ApiRequestCancelled);
    await expect(client.GET('/outlets', { params: { query: { client_id: 1 } } })).rejects.toThrow(
      'Request cancelled: GET /outlets',
    );
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('sends a permitted call, ignoring its query string', async () => {
    setPermissionsList(['/malls::Read']);
    respond = () => json([]);
    await client.GET('/malls', { params: { query: { client_id: 7 } } });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe(`${ORIGIN}/malls?client_id=7`);
  });

  it('never gates authentication endpoints, even with an empty list', async () => {
    respond = () => json({ message: 'Please sign in.', statusCode: 401 }, 401);
    await client.GET('/api/credential');
    await client.GET('/api/logout');
    await client.GET('/api/otp');
    expect(requests.map((request) => new URL(request.url).pathname)).toEqual([
      '/api/credential',
      '/api/logout',
      '/api/otp',
    ]);
  });

  it("emits 'unauthorized' with the server's message on a 401", async () => {
    setPermissionsList(['*::*']);
    respond = () => json({ statusCode: 401, error: 'Unauthorized', message: 'Your session has expired.' }, 401);
    const { error, response } = await client.GET('/clients');
    expect(response.status).toBe(401);
    expect(error).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Your session has expired.' });
    expect(events).toEqual([{ type: 'unauthorized', message: 'Your session has expired.', path: '/clients' }]);
  });

  it("leaves the 401 of a login to the login form (no 'unauthorized' event)", async () => {
    respond = () => json({ statusCode: 401, message: 'username or password is incorrect' }, 401);
    await client.POST('/api/login', { body: { username: 'a', password: 'b' } });
    expect(events).toEqual([]);
  });

  it("emits 'forbidden' on a 403", async () => {
    setPermissionsList(['/clients::Read']);
    respond = () =>
      json({ statusCode: 403, error: 'Forbidden', message: 'You do not have permission to do this.' }, 403);
    const { response } = await client.GET('/clients');
    expect(response.status).toBe(403);
    expect(events).toEqual([{ type: 'forbidden', path: '/clients' }]);
  });

  it("takes a render session's refusal of a write as that call's failure, not as a reason to sign out", async () => {
    setPermissionsList(['/api/occupancyBands::Update']);
    respond = () => json({ statusCode: 403, error: 'Forbidden', message: RENDER_ONLY_MESSAGE }, 403);
    const { response } = await client.PUT('/api/occupancyBands', { body: { client_id: 1, bands: [] } });
    expect(response.status).toBe(403);
    expect(events).toEqual([]);
  });

  it('emits nothing on success', async () => {
    setPermissionsList(['/clients::Read']);
    respond = () => json([{ id: 1, name: 'Acme' }]);
    const { data } = await client.GET('/clients');
    expect(data).toEqual([{ id: 1, name: 'Acme' }]);
    expect(events).toEqual([]);
  });
});
