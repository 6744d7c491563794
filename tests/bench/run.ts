/**
 * `npm run bench`: figures, not assertions. On DATABASE_URL, or on an embedded PostgreSQL in a temporary folder.
 *   BENCH_RECEIPTS=N    receipts for the generation and ingestion figures (default 200,000)
 *   BENCH_LOAD_USERS, BENCH_LOAD_SECONDS   the load runs (default 50 users for 60 s)
 *   BENCH_CLUSTER_INSTANCES   the instances behind nginx of the load on a cluster (default 2)
 */
import { generateDemoData } from '../../server/demo/generate.js';
import { createDatabase, databaseUrl, dropDatabase, withPostgres } from '../support/postgres.js';
import { printBundleSizes } from './bundle.js';
import { benchClusterLoad } from './clusterLoad.js';
import { benchDemoData } from './demoData.js';
import { benchExportsUnderLoad } from './exportsUnderLoad.js';
import { benchIngestApi } from './ingestApi.js';
import { benchLoad } from './load.js';
import { benchLookups } from './lookup.js';
import { benchMallReports } from './mallReports.js';
import { benchReceiptsList } from './receipts.js';

const LOOKUP_DATABASE = 'bench_lookup';
const say = (message: string) => process.stdout.write(`${message}\n`);

await withPostgres(async (serverUrl) => {
  say('== demo data and ingestion');
  await benchDemoData(serverUrl, {
    receipts: process.env.BENCH_RECEIPTS ? Number(process.env.BENCH_RECEIPTS) : undefined,
  });

  say('\n== receipts ingestion API over HTTP on loopback (BENCH_INGEST_RECEIPTS, default 200,000 receipts)');
  await benchIngestApi(serverUrl);

  say('\n== API latency over HTTP on loopback (demo data, 20,000 receipts)');
  const pool = await createDatabase(serverUrl, LOOKUP_DATABASE);
  try {
    await generateDemoData(pool, { seed: 20261121, receipts: 20_000, endDate: '2026-10-31' });
    await pool.end();
    await benchLookups(databaseUrl(serverUrl, LOOKUP_DATABASE));
  } finally {
    await dropDatabase(serverUrl, LOOKUP_DATABASE);
  }

  say('\n== mall reports over HTTP on loopback (BENCH_RECEIPTS_REPORTS, default 10,000,000 receipts)');
  await benchMallReports(serverUrl);

  say('\n== receipts list over HTTP on loopback (BENCH_RECEIPTS_LIST, default 1,000,000 receipts)');
  await benchReceiptsList(serverUrl);

  say('\n== exports under load: four receipts PDFs at once (500 receipts of 20,000 characters; 10,000 ordinary ones)');
  await benchExportsUnderLoad(serverUrl);

  say(
    '\n== load: signed-in users on the server of npm start with its demo data (BENCH_LOAD_USERS, BENCH_LOAD_SECONDS)',
  );
  await benchLoad(serverUrl);

  say(
    '\n== load on a cluster: one instance on the primary, then BENCH_CLUSTER_INSTANCES (default 2) behind nginx with report reads on a streaming replica',
  );
  await benchClusterLoad();
});

say('\n== bundle');
printBundleSizes();
