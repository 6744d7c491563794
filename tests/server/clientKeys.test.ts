import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers.js';

/*
 * The premise of distributing the database by client (ARCHITECTURE.md, "Beyond one primary: distributing by
 * client"): every table that holds a client's data carries client_id in each of its keys, and every repository
 * statement on such a table filters or joins by it, so that a statement meets one client's shard or co-located
 * shards. The catalog is read from a migrated database; the statements from the source of server/repositories.
 * A new table must be classified here to pass, and a new exception must say why.
 */

/** Tables without client_id: what each is when distributed (reference: on every node; local: the coordinator's). */
const WITHOUT_CLIENT_ID: Readonly<Record<string, string>> = {
  clients: 'reference: the clients themselves, which every distributed table refers to',
  users: 'reference: a user is not one client’s (user_clients); read by every caller check',
  roles: 'reference: the install’s roles, shared by every client',
  role_route_permissions: 'reference: a role’s routes',
  role_api_permissions: 'reference: a role’s API permissions',
  role_component_permissions: 'reference: a role’s components',
  user_roles: 'reference: a user’s roles',
  email_domains: 'reference: policies of an e-mail domain, whichever clients its accounts see',
  sessions: 'local: a caller before any client is chosen, written by every request',
  one_time_codes: 'local: a session’s sign-in code',
  validation_keys: 'local: a user’s reset and activation links',
  known_devices: 'local: the browsers a user signed in from',
  login_attempts: 'local: sign-in throttling by name and address',
  auth_events: 'local: sign-in throttling of codes and resets',
  outbox: 'local: the install’s mail when no SMTP server is set',
  outbox_attachments: 'local: the files of the outbox’s mail',
  schema_migrations: 'local: the migrations applied',
};

/** Tables with client_id that are not distributed by it, so their statements need not filter by it. */
const NOT_DISTRIBUTED: Readonly<Record<string, string>> = {
  user_clients: 'reference: a user’s clients, read by user across clients on every caller check',
  xero_authorizations: 'local: an authorization under way, found at the callback by its cookie before any client',
};

/**
 * Keys of tables with client_id that lack it (`table:index`, or `table:no primary key`). Each is what a migration
 * must change before create_distributed_table, which refuses a unique key without the distribution column.
 */
const KEY_EXCEPTIONS: Readonly<Record<string, string>> = {
  'malls:malls_id_key': 'UNIQUE (id), redundant with the identity: dropped when distributing',
  'outlets:outlets_id_key': 'UNIQUE (id), redundant with the identity: dropped when distributing',
  'calendar_entries:calendar_entries_id_key': 'UNIQUE (id), redundant with the identity: dropped when distributing',
  'mall_events:mall_events_id_key': 'UNIQUE (id), redundant with the identity: dropped when distributing',
  'leases:leases_id_key': 'UNIQUE (id), redundant with the identity: dropped when distributing',
  'scheduled_mails:scheduled_mails_id_key': 'UNIQUE (id), redundant with the identity: dropped when distributing',
  'device_keys:device_keys_pkey': 'PRIMARY KEY (id): becomes (client_id, id)',
  'device_keys:device_keys_key_hash_key':
    'UNIQUE (key_hash): a key is found by its hash alone, across clients; becomes (client_id, key_hash) once a key names its client',
  'receipt_text_dictionaries:receipt_text_dictionaries_pkey': 'PRIMARY KEY (id): becomes (client_id, id)',
  'receipts:no primary key':
    'partitioned by month: a primary key would need datetime; receipts_identity (client_id, …) is its key',
  'xero_authorizations:xero_authorizations_pkey': 'local, not distributed (NOT_DISTRIBUTED)',
};

interface StatementException {
  file: string;
  table: string;
  /** A part of the statement's text that tells it apart in its file. */
  text: string;
  reason: string;
}

/** Statements on distributed tables that cross clients by design, and why that is right. */
const CROSS_CLIENT: readonly StatementException[] = [
  {
    file: 'deviceKeys.ts',
    table: 'device_keys',
    text: 'WHERE key_hash = $1 AND revoked_at IS NULL',
    reason: 'the key is a device’s only credential: its client is what the lookup finds',
  },
  {
    file: 'users.ts',
    table: 'user_outlets',
    text: 'FROM user_outlets',
    reason: 'a caller’s grants span the clients the user sees (the caller cache, once per user)',
  },
  {
    file: 'xero.ts',
    table: 'xero_connections',
    text: 'WHERE refresh_failed_at IS NULL ORDER BY client_id',
    reason: 'the daily posting job lists the connected clients, then posts each client’s days on its own',
  },
  {
    file: 'scheduledMail.ts',
    table: 'scheduled_mails',
    text: 'DELETE FROM scheduled_mails WHERE delivered_at IS NOT NULL',
    reason: 'the maintenance job forgets delivered mails of every client',
  },
  {
    file: 'demo.ts',
    table: 'rollup_outlet_daily',
    text: 'FROM rollup_outlet_daily GROUP BY client_id',
    reason: 'the demo fill derives GTO submissions of every demo client at once',
  },
];

/** Statements that should filter by client_id and do not yet: to change before distributing (not crossing on purpose). */
const MISSING_CLIENT_FILTER: readonly StatementException[] = [];

const REPOSITORIES = path.join(import.meta.dirname, '../../server/repositories');

/** The .ts files of server/repositories, subfolders included, relative to it. */
function repositoryFiles(dir = REPOSITORIES): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return repositoryFiles(full);
    return entry.name.endsWith('.ts') ? [path.relative(REPOSITORIES, full)] : [];
  });
}

interface Literal {
  text: string;
  /** Offset in the source. */
  at: number;
}

/**
 * The outermost string and template literals of a TypeScript source, each with the text of the literals nested in
 * its `${…}` (a statement's fragments), comments skipped. Not a parser: enough for the repositories' SQL.
 */
function literalsOf(source: string): Literal[] {
  const found: Literal[] = [];
  let i = 0;
  const skipQuoted = (quote: string) => {
    i++;
    while (i < source.length && source[i] !== quote) i += source[i] === '\\' ? 2 : 1;
    i++;
  };
  const code = (insideTemplate: boolean) => {
    let depth = 0;
    while (i < source.length) {
      const c = source[i];
      if (c === '/' && source[i + 1] === '/') {
        while (i < source.length && source[i] !== '\n') i++;
      } else if (c === '/' && source[i + 1] === '*') {
        i = source.indexOf('*/', i + 2) + 2;
      } else if (c === "'" || c === '"') {
        const start = i;
        skipQuoted(c);
        if (!insideTemplate) found.push({ text: source.slice(start, i), at: start });
      } else if (c === '`') {
        const start = i;
        template();
        if (!insideTemplate) found.push({ text: source.slice(start, i), at: start });
      } else if (c === '{') {
        depth++;
        i++;
      } else if (c === '}') {
        i++;
        if (depth === 0 && insideTemplate) return;
        depth--;
      } else {
        i++;
      }
    }
  };
  const template = () => {
    i++;
    while (i < source.length && source[i] !== '`') {
      if (source[i] === '\\') i += 2;
      else if (source[i] === '$' && source[i + 1] === '{') {
        i += 2;
        code(true);
      } else i++;
    }
    i++;
  };
  code(false);
  return found;
}

const sources = new Map(
  repositoryFiles().map((file) => [file, fs.readFileSync(path.join(REPOSITORIES, file), 'utf8')]),
);

/**
 * The code that defines `name` as a statement sees it: the nearest `const`/`let` before `at` in the same file
 * (to its `;`), else a function of that name in any repository (to its closing brace).
 */
function definitionOf(file: string, name: string, at: number): string {
  const source = sources.get(file) ?? '';
  const local = [
    ...source
      .slice(0, at)
      .matchAll(new RegExp(`\\b(?:const|let)\\s+(?:\\{[^}]*\\b${name}\\b[^}]*\\}|${name})\\s*[:=]`, 'g')),
  ].pop();
  if (local) return source.slice(local.index, source.indexOf(';\n', local.index));
  for (const other of sources.values()) {
    const fn = new RegExp(`\\bfunction\\s+${name}\\b`).exec(other);
    if (fn) return other.slice(fn.index, other.indexOf('\n}', fn.index));
  }
  return '';
}

/**
 * A statement with the definitions of the fragments it interpolates (`WHERE ${where}`), and theirs, three levels
 * down: a filter built in a helper (`dayRowsWhere`, `clientOutletCondition`) counts as the statement's.
 */
function withFragments(file: string, text: string, at: number, depth = 3): string {
  if (depth === 0) return text;
  const names = depth === 3 ? text.matchAll(/\$\{\s*([A-Za-z_]\w*)/g) : text.matchAll(/\b([A-Za-z_]\w*)\b/g);
  const unique = [...new Set([...names].map((match) => match[1] ?? ''))].filter((name) => name.length > 2);
  return [text, ...unique.map((name) => withFragments(file, definitionOf(file, name, at), at, depth - 1))].join('\n');
}

/** client_id compared (a filter: `client_id = $1`, `= ANY(…)`, `IN`; or a join: `o.client_id = r.client_id`). */
const COMPARES_CLIENT =
  /\bclient_id\s*(=|<>|IN\b)|=\s*(\w+\.)?client_id\b|\bclient_id\)\s*(=|IN\b)|USING\s*\(\s*client_id\b/;

interface Statement {
  file: string;
  line: number;
  /** Offset in the file. */
  at: number;
  text: string;
  tables: string[];
}

/**
 * The SQL statements of the repositories (literals holding SELECT, INSERT, UPDATE or DELETE) that read or write
 * `tables`.
 */
function statementsOn(tables: readonly string[]): Statement[] {
  return [...sources].flatMap(([file, source]) =>
    literalsOf(source)
      .filter((literal) => /\b(SELECT|INSERT|UPDATE|DELETE)\b/.test(literal.text))
      .map((literal) => ({
        file,
        line: source.slice(0, literal.at).split('\n').length,
        at: literal.at,
        text: literal.text,
        // A table after FROM, JOIN, INTO, UPDATE or USING; not a CTE of the same name (`malls AS (…)`).
        tables: tables.filter(
          (table) =>
            new RegExp(`\\b(FROM|JOIN|INTO|UPDATE|USING)\\s+${table}\\b`).test(literal.text) &&
            !new RegExp(`\\b${table}\\s+AS\\s*\\(`).test(literal.text),
        ),
      }))
      .filter((statement) => statement.tables.length > 0),
  );
}

/** Whether a statement keeps to one client's rows, or joins co-located rows, for each distributed table it names. */
function keepsToClients(statement: Statement, table: string): boolean {
  // An insert names the row's client in its columns: Citus routes the row to that client's shard.
  const insert = new RegExp(`\\bINTO\\s+${table}\\s*(AS\\s+\\w+\\s*)?\\([^)]*\\bclient_id\\b`);
  return (
    insert.test(statement.text) ||
    COMPARES_CLIENT.test(statement.text) ||
    COMPARES_CLIENT.test(withFragments(statement.file, statement.text, statement.at))
  );
}

const excepted = (exceptions: readonly StatementException[], statement: Statement, table: string) =>
  exceptions.find(
    (exception) =>
      exception.table === table &&
      path.basename(statement.file) === exception.file &&
      statement.text.includes(exception.text),
  );

interface TableRow {
  table: string;
  has_client_id: boolean;
  has_primary_key: boolean;
}

interface KeyRow {
  table: string;
  index: string;
  primary: boolean;
  columns: string[];
}

describe('every table of a client’s data is keyed by client_id', () => {
  let db: TestDatabase;
  let tables: TableRow[];
  let keys: KeyRow[];

  beforeAll(async () => {
    db = await createTestDatabase();
    // Tables and partitioned tables of public, not their partitions (receipts_2026_01 follows receipts).
    ({ rows: tables } = await db.pool.query<TableRow>(
      `SELECT c.relname AS table,
         EXISTS (SELECT 1 FROM pg_attribute a
                 WHERE a.attrelid = c.oid AND a.attname = 'client_id' AND NOT a.attisdropped) AS has_client_id,
         EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary) AS has_primary_key
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
       ORDER BY 1`,
    ));
    // Every unique index (primary keys, unique constraints and unique indexes), with its key columns, not INCLUDE's.
    ({ rows: keys } = await db.pool.query<KeyRow>(
      `SELECT c.relname AS table, ic.relname AS index, i.indisprimary AS primary,
         coalesce(array_agg(a.attname::text) FILTER (WHERE a.attname IS NOT NULL), '{}') AS columns
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_class ic ON ic.oid = i.indexrelid
       LEFT JOIN LATERAL unnest((i.indkey::int2[])[0:i.indnkeyatts - 1]) AS k(attnum) ON true
       LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
       WHERE n.nspname = 'public' AND i.indisunique AND c.relkind IN ('r', 'p') AND NOT c.relispartition
       GROUP BY c.relname, ic.relname, i.indisprimary
       ORDER BY 1, 2`,
    ));
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('classifies every table without client_id as a reference or local table', () => {
    const unclassified = tables
      .filter((row) => !row.has_client_id && !(row.table in WITHOUT_CLIENT_ID))
      .map((row) => `${row.table}: no client_id; add it (a client's data) or classify it in WITHOUT_CLIENT_ID`);
    expect(unclassified).toEqual([]);
    const gone = Object.keys(WITHOUT_CLIENT_ID).filter(
      (name) => !tables.some((row) => row.table === name && !row.has_client_id),
    );
    expect(gone, 'WITHOUT_CLIENT_ID names tables that are gone or have client_id now').toEqual([]);
  });

  it('has client_id in the primary key and every unique key of each table that has the column', () => {
    const withClient = new Set(tables.filter((row) => row.has_client_id).map((row) => row.table));
    const found = [
      ...tables
        .filter((row) => row.has_client_id && !row.has_primary_key)
        .map((row) => ({ key: `${row.table}:no primary key`, what: `${row.table} has no primary key` })),
      ...keys
        .filter((key) => withClient.has(key.table) && !key.columns.includes('client_id'))
        .map((key) => ({
          key: `${key.table}:${key.index}`,
          what: `${key.table}: ${key.primary ? 'primary key' : 'unique key'} ${key.index} (${key.columns.join(', ')}) lacks client_id`,
        })),
    ];
    expect(found.filter((finding) => !(finding.key in KEY_EXCEPTIONS)).map((finding) => finding.what)).toEqual([]);
    const stale = Object.keys(KEY_EXCEPTIONS).filter((key) => !found.some((finding) => finding.key === key));
    expect(stale, 'KEY_EXCEPTIONS names keys that have client_id now or are gone').toEqual([]);
  });

  it('filters or joins by client_id in every repository statement on a distributed table', () => {
    const distributed = tables
      .filter((row) => row.has_client_id && !(row.table in NOT_DISTRIBUTED))
      .map((row) => row.table);
    expect(distributed).toContain('receipts');
    const statements = statementsOn(distributed);
    // The scan sees the repositories' SQL: if it found a handful, the scanner is broken, not the code.
    expect(statements.length).toBeGreaterThan(150);
    const unfiltered: string[] = [];
    const used = new Set<StatementException>();
    for (const statement of statements) {
      for (const table of statement.tables) {
        if (keepsToClients(statement, table)) continue;
        const exception = excepted(CROSS_CLIENT, statement, table) ?? excepted(MISSING_CLIENT_FILTER, statement, table);
        if (exception) used.add(exception);
        else
          unfiltered.push(
            `server/repositories/${statement.file}:${statement.line}: a statement on ${table} without client_id ` +
              '(filter or join by it, or name it in CROSS_CLIENT with the reason)',
          );
      }
    }
    expect(unfiltered).toEqual([]);
    const stale = [...CROSS_CLIENT, ...MISSING_CLIENT_FILTER]
      .filter((exception) => !used.has(exception))
      .map((exception) => `${exception.file}: ${exception.text}`);
    expect(stale, 'exceptions that match no statement any more').toEqual([]);
  });
});
