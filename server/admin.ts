/**
 * npm run admin -- create-admin --email you@example.com [--name "Your Name"]
 *
 * The administration commands of a real install, on the database the server uses (DATABASE_URL, else the embedded
 * PostgreSQL under DATA_DIR while the server is stopped), after applying migrations. `create-admin` creates a super
 * admin; the password is read from standard input: typed twice and not shown at a terminal, else the first line of
 * what is piped in (`printf '%s\n' "$PASSWORD" | npm run admin -- create-admin --email ...`).
 */
import { parseArgs } from 'node:util';
import { setPasswordHashCost } from './auth/passwords.js';
import { loadConfig } from './config.js';
import { createAdmin } from './createAdmin.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import { runCommand } from './runCommand.js';

const USAGE = 'Usage: npm run admin -- create-admin --email you@example.com [--name "Your Name"]';
const say = (message: string) => process.stdout.write(`${message}\n`);

/** Reads a line at the terminal without showing it; Ctrl-C or Ctrl-D gives up. */
function promptHidden(prompt: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(prompt);
  input.setRawMode(true);
  input.resume();
  input.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === '\r' || character === '\n') return done();
        if (character === '\u0003' || character === '\u0004') return done(new Error('No password given.'));
        if (character === '\u007f' || character === '\b') typed = [...typed].slice(0, -1).join('');
        else typed += character;
      }
    };
    input.on('data', onData);
  });
}

/** The first line of standard input when it is piped in. */
async function firstLineOfInput(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) return firstLineOfInput();
  const password = await promptHidden('Password: ');
  if ((await promptHidden('The same password again: ')) !== password) throw new Error('The passwords differ.');
  return password;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    say(USAGE);
    return 0;
  }
  if (positionals.length !== 1 || positionals[0] !== 'create-admin' || !values.email) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  setPasswordHashCost(config.passwordHashCost);
  const password = await readPassword();
  const database = await openDatabase(config, () => {});
  // pool.end() resolves before idle connections have closed; stopping the embedded server then ends them with an
  // error event that would otherwise crash the process on the way out.
  database.pool.on('error', () => {});
  try {
    const applied = await migrate(database.pool);
    if (applied.length > 0) say(`Applied migrations: ${applied.join(', ')}`);
    const outcome = await createAdmin(database.pool, { email: values.email, password, displayName: values.name });
    if (!outcome.created) {
      process.stderr.write(`${outcome.problem}\n`);
      return 1;
    }
    if (outcome.rolesAdded.length > 0) say(`Roles added: ${outcome.rolesAdded.join(', ')}.`);
    say(`Created the super admin ${outcome.email}: sign in at ${config.publicUrl}/login`);
    return 0;
  } finally {
    await database.close();
  }
}

runCommand(main);
