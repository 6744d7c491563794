import { createPool } from './server/db/pool.js';
import { rentInputs } from './server/repositories/leases.js';

const pool = createPool('postgres://postgres@127.0.0.1:55432/bench_mall_reports', 4);
const { rows: malls } = await pool.query('SELECT id, client_id FROM malls ORDER BY id');
const clientId = malls[0].client_id;
const mallIds = malls.filter((m: { client_id: number }) => m.client_id === clientId).map((m: { id: number }) => m.id);
let captured: { text: string; values: unknown[] } | undefined;
const spy = {
  query: (text: string, values: unknown[]) => {
    captured = { text, values };
    return pool.query(text, values);
  },
};
await rentInputs(
  spy as never,
  { clientId, visibility: { clientIds: [clientId], outletLimits: new Map() }, mallIds },
  '2026-10',
);
if (!captured) throw new Error('none');
for (let i = 0; i < 3; i++) await pool.query(captured.text, captured.values);
const { rows } = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${captured.text}`, captured.values);
console.log(rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
await pool.end();
