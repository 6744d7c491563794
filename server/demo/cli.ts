/**
 * npm run demo-data -- [--receipts N] [--seed S] [--end-date YYYY-MM-DD] [--reset]
 *
 * Generates the demo dataset into the database the server uses (DATABASE_URL, else the embedded PostgreSQL
 * under the data folder), after applying migrations. Without --reset it refuses to touch a database that
 * already holds data; with --reset it empties every table first.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { isDatabaseEmpty, truncateAll } from '../repositories/demo.js';
import { runCommand } from '../runCommand.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './accounts.js';
import { DEFAULT_DEMO_RECEIPTS, generateDemoData } from './generate.js';

const say = (message: string) => process.stdout.write(`${message}\n`);

function wholeNumber(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value.replace(/[_,]/g, ''));
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`--${name} must be a whole number, got '${value}'`);
  return parsed;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      receipts: { type: 'string' },
      seed: { type: 'string' },
      'end-date': { type: 'string' },
      reset: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    say('Usage: npm run demo-data -- [--receipts N] [--seed S] [--end-date YYYY-MM-DD] [--reset]');
    return 0;
  }
  const config = loadConfig();
  const receipts = wholeNumber(values.receipts, 'receipts', config.demoReceipts ?? DEFAULT_DEMO_RECEIPTS);
  const seed = wholeNumber(values.seed, 'seed', config.demoSeed);
  const endDate = values['end-date'];
  if (endDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(endDate))
    throw new Error(`--end-date must be YYYY-MM-DD, got '${endDate}'`);

  say(config.databaseUrl ? 'Connecting to DATABASE_URL…' : `Starting the embedded PostgreSQL under ${config.dataDir}…`);
  const database = await openDatabase(config, () => {});
  // pool.end() resolves before idle connections have closed; stopping the embedded server then ends them with
  // an error event that would otherwise crash the process on the way out.
  database.pool.on('error', () => {});
  try {
    const applied = await migrate(database.pool);
    if (applied.length > 0) say(`Applied migrations: ${applied.join(', ')}`);
    if (values.reset) {
      const tables = await truncateAll(database.pool);
      say(`Emptied ${tables.length} tables.`);
    } else if (!(await isDatabaseEmpty(database.pool))) {
      process.stderr.write(
        'The database already holds data: nothing was changed. Run with --reset to empty it and generate the demo data again.\n',
      );
      return 1;
    }
    const result = await generateDemoData(database.pool, { seed, receipts, endDate, log: say });
    say(
      `Generated ${result.receipts.toLocaleString('en-US')} receipts for ${result.outlets} outlets ` +
        `(${result.startDate} to ${result.endDate}) in ${result.seconds.toFixed(1)} s: ` +
        `${Math.round(result.receipts / Math.max(result.seconds, 0.001)).toLocaleString('en-US')} receipts/s.`,
    );
    say(`Demo accounts (password ${DEMO_PASSWORD}):`);
    for (const account of DEMO_ACCOUNTS) say(`  ${account.email.padEnd(26)} ${account.description}`);
    return 0;
  } finally {
    await database.close();
  }
}

runCommand(main);
