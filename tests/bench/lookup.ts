import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { createPool } from '../../server/db/pool.js';
import { signInForBench } from './session.js';
import { printRow, timeCalls } from './stats.js';

/** p50/p95 of the lookup calls over real HTTP on loopback, for an operator and for the super admin. */
export async function benchLookups(databaseUrl: string, count = 500): Promise<void> {
  const pool = createPool(databaseUrl, 10);
  const app = await buildApp({ pool, config: { ...loadConfig({}), staticDir: '/nonexistent' } });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    for (const username of ['operator@demo.mall', 'admin@demo.mall']) {
      const get = await signInForBench(address, username);
      for (const path of ['/clients', '/outlets?client_id=1', '/malls?client_id=1']) {
        const times = await timeCalls(async () => {
          await get(path);
        }, count);
        printRow(`GET ${path} (${username.split('@')[0]})`, times);
      }
    }
  } finally {
    await app.close();
    await pool.end();
  }
}
