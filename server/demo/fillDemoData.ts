import type { Pool } from '../db/pool.js';
import { isDatabaseEmpty, whileHoldingDemoFillLock } from '../repositories/demo.js';
import { type GenerateDemoDataOptions, type GenerateDemoDataResult, generateDemoData } from './generate.js';

/**
 * Generates the demo data into an empty database, once however many servers start together on it: the check and the
 * fill run under one advisory lock, so the others wait and then find the database filled. Answers the fill's result,
 * or undefined when the database already held data.
 */
export async function fillDemoDataOnce(
  pool: Pool,
  options: GenerateDemoDataOptions,
): Promise<GenerateDemoDataResult | undefined> {
  return whileHoldingDemoFillLock(pool, async () => {
    if (!(await isDatabaseEmpty(pool))) return undefined;
    options.log?.('The database is empty: generating the demo data…');
    return generateDemoData(pool, options);
  });
}
