import { DEMO_PASSWORD } from '../../server/demo/accounts.js';

/** A GET that returns the parsed JSON of a 200 answer and throws on any other status. */
export type BenchGet = (pathAndQuery: string) => Promise<unknown>;

/** Signs a demo account in over HTTP (CSRF token, login) and returns a GET carrying its session cookie. */
export async function signInForBench(address: string, username: string): Promise<BenchGet> {
  const csrf = await fetch(`${address}/api/getcsrftoken`);
  const anonymousCookie = (csrf.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const login = await fetch(`${address}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, cookie: anonymousCookie },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`login of ${username} failed: ${login.status}`);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return async (pathAndQuery) => {
    const response = await fetch(`${address}${pathAndQuery}`, { headers: { cookie } });
    if (response.status !== 200) throw new Error(`${pathAndQuery}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
}
