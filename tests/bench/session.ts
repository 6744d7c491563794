import http from 'node:http';
import { DEMO_PASSWORD } from '../../server/demo/accounts.js';

/** A GET that returns the parsed JSON of a 200 answer and throws on any other status. */
export type BenchGet = (pathAndQuery: string) => Promise<unknown>;

/** The `sid=...` pair of a response's cookies (the login also sets the device cookie). */
function sessionCookieOf(response: Response): string | undefined {
  return response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith('sid='))
    ?.split(';')[0];
}

/** Signs a demo account in over HTTP (CSRF token, login) and returns its session cookie. */
export async function signIn(address: string, username: string): Promise<string> {
  const csrf = await fetch(`${address}/api/getcsrftoken`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const login = await fetch(`${address}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, cookie: sessionCookieOf(csrf) ?? '' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`login of ${username} failed: ${login.status}`);
  const cookie = sessionCookieOf(login);
  if (!cookie) throw new Error(`login of ${username} set no session cookie`);
  return cookie;
}

/**
 * Signs a demo account in and returns a GET carrying its session cookie; `signInAt`, another server of the same
 * database to sign in on (default: `address`).
 */
export async function signInForBench(address: string, username: string, signInAt = address): Promise<BenchGet> {
  const cookie = await signIn(signInAt, username);
  return async (pathAndQuery) => {
    const response = await fetch(`${address}${pathAndQuery}`, { headers: { cookie } });
    if (response.status !== 200) throw new Error(`${pathAndQuery}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
}

/**
 * A GET for timing an answer: resolves once the whole body of a 200 answer has arrived (its bytes, not parsed: the
 * time a server takes to answer, without the timing client's own JSON parsing), throws on any other status;
 * `signInAt` as signInForBench's.
 */
export async function answerTimerForBench(
  address: string,
  username: string,
  signInAt = address,
): Promise<(path: string) => Promise<void>> {
  const cookie = await signIn(signInAt, username);
  // node:http on one kept-alive connection: a lighter client than fetch, whose own work is inside the timings.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return (pathAndQuery) =>
    new Promise<void>((resolve, reject) => {
      const request = http.get(`${address}${pathAndQuery}`, { agent, headers: { cookie } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          if (response.statusCode === 200) resolve();
          else reject(new Error(`${pathAndQuery}: ${response.statusCode} ${Buffer.concat(chunks).toString()}`));
        });
      });
      request.on('error', reject);
    });
}
