import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { createPool } from '../../server/db/pool.js';
import { printRow, timeCalls } from './stats.js';

const PASSWORD = 'demo-password-1';

/** p50/p95 of the lookup calls over real HTTP on loopback, for an operator and for the super admin. */
export async function benchLookups(databaseUrl: string, count = 500): Promise<void> {
  const pool = createPool(databaseUrl, 10);
  const app = await buildApp({ pool, config: { ...loadConfig({}), staticDir: '/nonexistent' } });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    for (const username of ['operator@demo.mall', 'admin@demo.mall']) {
      const csrf = await fetch(`${address}/api/getcsrftoken`);
      let cookie = (csrf.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const login = await fetch(`${address}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, cookie },
        body: JSON.stringify({ username, password: PASSWORD }),
      });
      if (login.status !== 200) throw new Error(`login of ${username} failed: ${login.status}`);
      cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      for (const path of ['/clients', '/outlets?client_id=1', '/malls?client_id=1']) {
        const times = await timeCalls(async () => {
          const response = await fetch(`${address}${path}`, { headers: { cookie } });
          if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
          await response.arrayBuffer();
        }, count);
        printRow(`GET ${path} (${username.split('@')[0]})`, times);
      }
    }
  } finally {
    await app.close();
    await pool.end();
  }
}
