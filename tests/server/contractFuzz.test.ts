import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations, loadSpecification, type Operation } from '../../server/openapi.js';
import { createDeviceKey } from '../../server/repositories/deviceKeys.js';
import { validatorCompiler } from '../../server/validation.js';
import { PASSWORD, seedWorld, WORLD } from './fixtures.js';
import { Agent, createTestApp, createTestDatabase, type TestDatabase } from './helpers.js';

/**
 * Bad input for every operation of openapi.yaml, generated from the contract itself: for each query parameter
 * and body field (nested ones too), a wrong type, a value out of range, an impossible date, a value too long,
 * control characters, a value outside its enum, too many items, an unknown field, or the field left out when it
 * is required; and for every range the contract's description states (start/end pairs), a range past the
 * longest one and a reversed one. Each is sent alone, with every other field valid, by a super admin (past the
 * session, CSRF and permission checks), and must answer 400 with a message naming the field: never a 5xx, never
 * an answer from the handler. Every operation is covered, built or not (501); a new one needs no test of its own.
 */

type Schema = Record<string, unknown>;
type Json = unknown;

const SEED = 20_261_121;
/** Random bad values per operation, on top of the fixed ones. */
const RANDOM_RUNS_PER_OPERATION = 12;

const spec = loadSpecification();

function resolve(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(resolve);
  if (typeof node !== 'object' || node === null) return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    let target: unknown = spec;
    for (const part of ref.replace(/^#\//, '').split('/')) target = (target as Record<string, unknown>)[part];
    return resolve(target);
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value)]));
}

interface Field {
  /** 'query' or 'body'. */
  part: 'query' | 'body';
  /** The path of the field: ['mall_ids'], ['data', 0, 'outlet_id']. */
  path: (string | number)[];
  schema: Schema;
  required: boolean;
}

interface OperationInput {
  operation: Operation;
  query: Record<string, Json>;
  body: Record<string, Json> | undefined;
  fields: Field[];
}

/* ---------------------------------------------------------------- valid values */

/** A valid value for the ids an operation's x-scope names: the fixtures' own (the super admin sees all). */
function scopedValue(operation: Operation, part: string, name: string): Json {
  const entry = Object.entries(operation.scope).find(([, location]) => location === `${part}.${name}`);
  if (!entry) return undefined;
  const [kind] = entry;
  if (kind === 'client') return WORLD.clients.zenith;
  if (kind === 'outlet') return WORLD.outlets.boutique;
  if (kind === 'outlets') return String(WORLD.outlets.boutique);
  if (kind === 'mall') return WORLD.malls.central;
  return [WORLD.malls.central];
}

const isValid = (schema: Schema, value: Json, part: 'query' | 'body') => {
  const validate = validatorCompiler({
    schema,
    method: 'GET',
    url: '/',
    httpPart: part === 'body' ? 'body' : 'querystring',
  });
  return validate(value) === true;
};

function validString(schema: Schema): string {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  if (schema.format === 'date' || schema.format === 'local-date-time') return '2026-03-01';
  if (schema.format === 'email') return 'fuzz@fixture.test';
  if (schema.format === 'date-time') return '2026-03-01T10:00:00Z';
  const candidates = ['a'.repeat(Math.max(minLength, 1)), `a1${'b'.repeat(Math.max(minLength - 2, 0))}`];
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    candidates.push(...fc.sample(fc.stringMatching(pattern), { seed: SEED, numRuns: 300 }));
  }
  const found = candidates.find((candidate) => isValid(schema, candidate, 'body'));
  if (found === undefined) throw new Error(`No valid sample for ${JSON.stringify(schema)}`);
  return found;
}

function validValue(schema: Schema): Json {
  if (Array.isArray(schema.anyOf)) return validValue(schema.anyOf[0] as Schema);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  // A value whose rules a schema cannot state (a page's filters naming its client) is given as the contract's example.
  if (schema.example !== undefined) return schema.example;
  switch (schema.type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'string':
      return validString(schema);
    case 'array':
      return [validValue(schema.items as Schema)];
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((name) => [name, validValue(properties[name] as Schema)]));
    }
    default:
      return 'a';
  }
}

/** Every field of a body schema, nested objects and the objects of arrays (their first item) included. */
function bodyFields(schema: Schema, path: (string | number)[], required: boolean, into: Field[]): void {
  if (path.length > 0) into.push({ part: 'body', path, schema, required });
  if (schema.type === 'object') {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const requiredNames = (schema.required ?? []) as string[];
    for (const [name, child] of Object.entries(properties)) {
      bodyFields(child, [...path, name], requiredNames.includes(name), into);
    }
  }
  if (schema.type === 'array' && (schema.items as Schema | undefined)?.type === 'object') {
    bodyFields(schema.items as Schema, [...path, 0], true, into);
  }
}

function inputOf(operation: Operation): OperationInput {
  const raw = (spec.paths as Record<string, Record<string, Schema>>)[operation.path]?.[operation.method.toLowerCase()];
  const resolved = resolve(raw) as Schema;
  const parameters = (resolved.parameters ?? []) as { name: string; in: string; required?: boolean; schema: Schema }[];
  const query: Record<string, Json> = {};
  const fields: Field[] = [];
  for (const parameter of parameters) {
    if (parameter.in !== 'query')
      throw new Error(`${operation.operationId}: ${parameter.in} parameters are not generated`);
    fields.push({
      part: 'query',
      path: [parameter.name],
      schema: parameter.schema,
      required: parameter.required === true,
    });
    if (parameter.required) {
      query[parameter.name] = scopedValue(operation, 'query', parameter.name) ?? validValue(parameter.schema);
    }
  }
  const bodySchema = (resolved.requestBody as Schema | undefined)?.content as
    | Record<string, { schema: Schema }>
    | undefined;
  const schema = bodySchema?.['application/json']?.schema;
  let body: Record<string, Json> | undefined;
  if (schema) {
    body = validValue(schema) as Record<string, Json>;
    for (const name of Object.keys(body)) body[name] = scopedValue(operation, 'body', name) ?? body[name];
    bodyFields(schema, [], true, fields);
  }
  return { operation, query, body, fields };
}

/* ---------------------------------------------------------------- bad values */

const IMPOSSIBLE_DATES = ['2026-02-30', '2025-13-01', '0000-00-00', '2025-06-01 25:61:61', '2025-02-29', '20250601'];
const BAD_IDS = ['0', '-1', '1.5', '2147483648', '9007199254740993', '12345678901234567890', '1e309', 'abc'];
const CONTROL = ['a\u0000b', 'a\u0007', 'line\nbreak', '\u001b[31m', 'del\u007f'];

/** Values that no schema of this kind accepts, as they arrive: text in a query string, JSON in a body. */
function fixedBadValues(field: Field): Json[] {
  const { schema, part } = field;
  const inBody = part === 'body';
  const wrongTypes: Json[] = inBody ? [{}, [], ...(schema.nullable ? [] : [null])] : [];
  if (Array.isArray(schema.enum)) return [...wrongTypes, 'not-a-listed-value', 'a\u0000b'];
  switch (schema.type) {
    case 'integer':
    case 'number': {
      const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
      const texts = [...BAD_IDS.filter((value) => value !== '0' || (schema.minimum as number) >= 1), 'NaN', 'Infinity'];
      if (maximum !== undefined) texts.push(String(maximum * 10 + 1));
      if (schema.type === 'number') texts.splice(texts.indexOf('1.5'), 1);
      return inBody
        ? [...wrongTypes, true, false, '1', ...(maximum === undefined ? [] : [maximum * 10 + 1]), -1]
        : texts;
    }
    case 'boolean':
      return inBody ? [...wrongTypes, 1, 0, 'true'] : ['maybe', 'yes', '2'];
    case 'string': {
      const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 100_000;
      const values: Json[] = [...wrongTypes, ...CONTROL, 'x'.repeat(maxLength + 1)];
      if (inBody) values.push(12, true);
      if (typeof schema.minLength === 'number' && schema.minLength > 0) values.push('');
      if (schema.format === 'date' || schema.format === 'local-date-time') values.push(...IMPOSSIBLE_DATES);
      if (typeof schema.pattern === 'string' && /\\d/.test(schema.pattern))
        values.push('01', ...BAD_IDS.slice(0, 7), '1,,2');
      return values.filter((value) => typeof value !== 'string' || !isValid(schema, value, part));
    }
    case 'array': {
      const items = schema.items as Schema;
      const itemBad = fixedBadValues({ ...field, schema: items }).filter((value) => !Array.isArray(value));
      const tooMany = Array.from({ length: ((schema.maxItems as number) ?? 1000) + 1 }, () => validValue(items));
      const values: Json[] = [...itemBad.map((value) => [value]), tooMany];
      if (inBody) values.push('x', 7, ...(schema.minItems ? [[]] : []), ...(schema.nullable ? [] : [null]));
      return values;
    }
    case 'object':
      return [
        'x',
        7,
        [],
        ...(schema.additionalProperties === false ? [{ ...(validValue(schema) as object), unexpected: 1 }] : []),
      ];
    default:
      return [];
  }
}

/** Random bad values of the field's kind (fast-check): text with a control character, huge numbers, odd dates. */
function randomBadValue(field: Field): fc.Arbitrary<Json> {
  const { schema } = field;
  const withControl = fc
    .tuple(fc.string({ maxLength: 20 }), fc.integer({ min: 0, max: 0x1f }), fc.string({ maxLength: 20 }))
    .map(([before, code, after]) => `${before}${String.fromCharCode(code)}${after}`);
  if (schema.type === 'integer' || schema.type === 'number') {
    const maximum = typeof schema.maximum === 'number' ? schema.maximum : 2_147_483_647;
    const huge = fc.bigInt({ min: BigInt(Math.floor(maximum)) + 1n, max: 10n ** 30n }).map(String);
    return field.part === 'body' ? fc.oneof(huge.map(Number), fc.boolean()) : huge;
  }
  if (schema.type === 'string' && (schema.format === 'date' || schema.format === 'local-date-time')) {
    const impossible = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 13, max: 99 }), fc.integer({ min: 32, max: 99 }))
      .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
    return fc.oneof(impossible, withControl);
  }
  if (schema.type === 'array')
    return randomBadValue({ ...field, schema: schema.items as Schema }).map((value) => [value]);
  return withControl;
}

/** The pairs of parameters whose range the contract's description limits (rules.ts), with a bad range each. */
const RANGES: [string, string][] = [
  ['startTime', 'endTime'],
  ['comparedStartTime', 'comparedEndTime'],
  ['start_time', 'end_time'],
];

/* ---------------------------------------------------------------- requests */

interface BadInput {
  input: OperationInput;
  /** The field the 400 must name. */
  field: string;
  /** Overrides of query parameters (undefined removes one) or a body field's new value. */
  query?: Record<string, Json>;
  body?: { path: (string | number)[]; value: Json };
  description: string;
}

function setPath(target: Json, path: (string | number)[], value: Json): Json {
  const copy = structuredClone(target) as Record<string | number, Json>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  const last = path[path.length - 1] as string | number;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

function badInputsOf(input: OperationInput, value: (field: Field) => Json[]): BadInput[] {
  const bad: BadInput[] = [];
  for (const field of input.fields) {
    const name = String(field.path[field.path.length - 1]);
    const name0 = String(field.path[0]);
    const values = value(field);
    if (field.required) values.push(undefined);
    for (const item of values) {
      const description = `${field.part} ${field.path.join('/')} = ${JSON.stringify(item)?.slice(0, 60)}`;
      const fieldName = field.path.length > 1 && typeof field.path[field.path.length - 1] === 'number' ? name0 : name;
      if (field.part === 'query') bad.push({ input, field: fieldName, query: { [name0]: item }, description });
      else bad.push({ input, field: fieldName, body: { path: field.path, value: item }, description });
    }
  }
  return bad;
}

function rangeInputsOf(input: OperationInput): BadInput[] {
  const names = new Set(input.fields.filter((field) => field.part === 'query').map((field) => field.path[0]));
  return RANGES.filter(([start, end]) => names.has(start) && names.has(end)).flatMap(([start, end]) => [
    {
      input,
      field: end,
      query: { [start]: '2025-06-01', [end]: '9999-12-31' },
      description: `${end} far past ${start}`,
    },
    {
      input,
      field: end,
      query: { [start]: '2024-01-01', [end]: '2025-06-01' },
      description: `${start}..${end} 518 days`,
    },
    {
      input,
      field: start,
      query: { [start]: '2025-06-02', [end]: '2025-06-01' },
      description: `${start} after ${end}`,
    },
  ]);
}

function urlOf(input: OperationInput, overrides: Record<string, Json> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...input.query, ...overrides })) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
  }
  return `${input.operation.path}${query.size > 0 ? `?${query}` : ''}`;
}

let db: TestDatabase;
let app: FastifyInstance;
let admin: Agent;
let tried = 0;
const started = Date.now();

async function send(bad: BadInput) {
  tried += 1;
  const { operation, body } = bad.input;
  const url = urlOf(bad.input, bad.query);
  const payload = bad.body ? setPath(body, bad.body.path, bad.body.value) : body;
  return admin.request(operation.method, url, {
    headers: headersFor(operation),
    ...(payload === undefined ? {} : { body: payload }),
  });
}

/** A device-key operation is called with a key of the fixture's cafe (the admin's session does not open it). */
let deviceKey = '';
const headersFor = (operation: Operation): Record<string, string> =>
  operation.access === 'device' ? { authorization: `Bearer ${deviceKey}` } : {};

function expectRefused(bad: BadInput, response: { statusCode: number; body: string }) {
  const label = `${bad.input.operation.operationId}: ${bad.description} answered ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, label).toBe(400);
  expect((JSON.parse(response.body) as { message: string }).message, label).toContain(bad.field);
}

const inputs = listOperations().map(inputOf);

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
  app = await createTestApp(db.pool);
  admin = new Agent(app);
  expect((await admin.login(WORLD.users.admin, PASSWORD)).statusCode).toBe(200);
  // Key 1 is the one the base request of revokeDeviceKey (id 1) revokes; the device calls use key 2.
  const device = { clientId: 1, outletId: WORLD.outlets.cafe, createdBy: null };
  await createDeviceKey(db.pool, { ...device, name: 'Revoked by the fuzz' });
  deviceKey = (await createDeviceKey(db.pool, { ...device, name: 'Fuzz' })).key;
});
afterAll(async () => {
  await app.close();
  await db.drop();
  process.stdout.write(
    `contract fuzz: ${tried} generated bad inputs tried over ${inputs.length} operations in ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
});

describe('bad input for every operation of openapi.yaml', () => {
  it('has a valid base request for each operation, which is not refused by validation', async () => {
    for (const input of inputs.filter((candidate) => candidate.operation.operationId !== 'logout')) {
      const response = await admin.request(input.operation.method, urlOf(input), {
        headers: headersFor(input.operation),
        ...(input.body === undefined ? {} : { body: input.body }),
      });
      const label = `${input.operation.operationId}: ${response.statusCode} ${response.body.slice(0, 300)}`;
      expect(response.statusCode === 501 || response.statusCode < 500, label).toBe(true);
      if (response.statusCode === 400) expect(response.json().message, label).not.toMatch(/^(querystring|body)\b/);
    }
  });

  it.each(
    inputs.filter((input) => input.fields.length > 0).map((input) => [input.operation.operationId, input] as const),
  )('%s answers 400 naming the field for each fixed bad value', async (_, input) => {
    for (const bad of [...badInputsOf(input, fixedBadValues), ...rangeInputsOf(input)]) {
      expectRefused(bad, await send(bad));
    }
  });

  it.each(
    inputs.filter((input) => input.fields.length > 0).map((input) => [input.operation.operationId, input] as const),
  )('%s answers 400 naming the field for random bad values (fast-check)', async (_, input) => {
    const field = fc
      .constantFrom(...input.fields)
      .chain((chosen) => randomBadValue(chosen).map((value) => ({ chosen, value })));
    await fc.assert(
      fc.asyncProperty(field, async ({ chosen, value }) => {
        const [bad] = badInputsOf(input, (candidate) => (candidate === chosen ? [value] : [])).filter((candidate) =>
          candidate.description.startsWith(`${chosen.part} ${chosen.path.join('/')} `),
        );
        if (!bad) return;
        expectRefused(bad, await send(bad));
      }),
      { seed: SEED, numRuns: RANDOM_RUNS_PER_OPERATION },
    );
  });
});

/* ---------------------------------------------------------------- media types */

/** A body as an HTML form would send it: its top-level fields, each as text. */
const formOf = (body: Json) =>
  new URLSearchParams(
    Object.entries((body ?? {}) as Record<string, Json>).map(([name, value]): [string, string] => [
      name,
      JSON.stringify(value),
    ]),
  ).toString();

const BOUNDARY = 'contract-fuzz-boundary';
/** A body as a multipart form would send it: its top-level fields, each a part. */
const multipartOf = (body: Json) =>
  `${Object.entries((body ?? {}) as Record<string, Json>)
    .map(
      ([name, value]) =>
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${JSON.stringify(value)}\r\n`,
    )
    .join('')}--${BOUNDARY}--\r\n`;

/**
 * Bodies of media types the contract does not declare for the operation (every body of the contract is
 * application/json): each must answer 415 before any check or handler reads it, whoever sends it.
 */
const WRONG_MEDIA_TYPES: { name: string; contentType: string | undefined; payload: (body: Json) => string }[] = [
  { name: 'text/plain', contentType: 'text/plain', payload: (body) => JSON.stringify(body) },
  {
    name: 'text/plain with a charset',
    contentType: 'text/plain; charset=utf-8',
    payload: (body) => JSON.stringify(body),
  },
  { name: 'a form', contentType: 'application/x-www-form-urlencoded', payload: formOf },
  { name: 'multipart', contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: multipartOf },
  { name: 'no Content-Type', contentType: undefined, payload: (body) => JSON.stringify(body) },
  { name: 'JSON in UTF-16', contentType: 'application/json; charset=utf-16', payload: (body) => JSON.stringify(body) },
  { name: 'a JSON-like type', contentType: 'application/json-patch+json', payload: (body) => JSON.stringify(body) },
  { name: 'text/json', contentType: 'text/json', payload: (body) => JSON.stringify(body) },
  { name: 'an empty Content-Type', contentType: '', payload: (body) => JSON.stringify(body) },
];

const withBody = inputs.filter((input) => input.operation.body !== undefined);

describe('bodies of media types the contract does not declare', () => {
  it('covers every operation with a body, each declaring application/json', () => {
    expect(withBody.length).toBeGreaterThan(25);
    for (const { operation } of withBody)
      expect(operation.body?.mediaTypes, operation.operationId).toEqual(['application/json']);
  });

  it.each(withBody.map((input) => [input.operation.operationId, input] as const))(
    '%s answers 415 to every other media type, 400 naming the body to none',
    async (_, input) => {
      const { operation } = input;
      for (const wrong of WRONG_MEDIA_TYPES) {
        tried += 1;
        const headers: Record<string, string> = { ...headersFor(operation) };
        if (wrong.contentType !== undefined) headers['content-type'] = wrong.contentType;
        const response = await admin.request(operation.method, urlOf(input), {
          headers,
          body: wrong.payload(input.body),
        });
        const label = `${operation.operationId} with ${wrong.name}: ${response.statusCode} ${response.body.slice(0, 300)}`;
        expect(response.statusCode, label).toBe(415);
        expect(response.json(), label).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
        expect(response.json().message, label).toEqual(expect.any(String));
      }
      tried += 1;
      const none = await admin.request(operation.method, urlOf(input), { headers: headersFor(operation) });
      const label = `${operation.operationId} without a body: ${none.statusCode} ${none.body.slice(0, 300)}`;
      expect(none.statusCode, label).toBe(400);
      expect(none.json().message, label).toMatch(/\bbody\b/i);
    },
  );

  it('still takes JSON with its charset named, in any case', async () => {
    const input = withBody.find((candidate) => candidate.operation.operationId === 'createCategory');
    if (!input) throw new Error('createCategory is not in the contract');
    for (const contentType of ['application/json; charset=utf-8', 'Application/JSON; charset="UTF-8"']) {
      const response = await admin.request(input.operation.method, urlOf(input), {
        headers: { 'content-type': contentType },
        body: JSON.stringify({ ...input.body, name: `Media ${contentType.length}` }),
      });
      expect(response.statusCode, `${contentType}: ${response.body}`).toBe(200);
    }
  });
});
