import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { actionForMethod } from '../src/domain/permissions.js';

export const OPENAPI_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'openapi.yaml');

/**
 * Who may call an operation: anyone ('public'), a session waiting for its one-time code ('pending'), a signed-in
 * user ('session'), one with the operation's path::Action permission ('permission'), or a point-of-sale device by
 * its key, with no session ('device').
 */
export type Access = 'public' | 'pending' | 'session' | 'permission' | 'device';
export type ScopeKind = 'client' | 'outlet' | 'outlets' | 'mall' | 'malls';

export interface Operation {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  tags: string[];
  access: Access;
  /** Where each owned id is found: 'query.client_id', 'body.outlet_id', ... */
  scope: Partial<Record<ScopeKind, string>>;
  /** A receipt call: refused to accounts whose e-mail domain has receipts hidden. */
  receipts: boolean;
  /** The largest request body it takes, in bytes, when larger than the server's default (x-body-limit). */
  bodyLimit?: number;
  /** Its request body: the media types the contract declares for it (lower case), and whether one is required. */
  body?: RequestBody;
}

export interface RequestBody {
  mediaTypes: string[];
  required: boolean;
}

const METHODS = ['get', 'post', 'put', 'delete'] as const;

/** The permission string an operation needs: `<path>::<Action>`. */
export function permissionFor(operation: Pick<Operation, 'method' | 'path'>): string {
  return `${operation.path}::${actionForMethod(operation.method) ?? 'Read'}`;
}

interface RawOperation {
  operationId?: string;
  tags?: string[];
  'x-access'?: Access;
  'x-scope'?: Partial<Record<ScopeKind, string>>;
  'x-receipts'?: boolean;
  'x-body-limit'?: number;
  requestBody?: RawRequestBody | { $ref: string };
}

interface RawRequestBody {
  required?: boolean;
  content?: Record<string, unknown>;
}

/** An operation's request body as the gate reads it, a `$ref` to components.requestBodies followed. */
function bodyOf(document: Record<string, unknown>, raw: RawOperation): { body?: RequestBody } {
  const given = raw.requestBody;
  if (!given) return {};
  const body = '$ref' in given ? namedRequestBody(document, given.$ref) : given;
  if (!body) throw new Error(`openapi.yaml: ${raw.operationId} names a request body that is not there`);
  const mediaTypes = Object.keys(body.content ?? {}).map((type) => type.toLowerCase());
  return { body: { mediaTypes, required: body.required === true } };
}

function namedRequestBody(document: Record<string, unknown>, ref: string): RawRequestBody | undefined {
  const name = /^#\/components\/requestBodies\/([^/]+)$/.exec(ref)?.[1] ?? '';
  const components = document.components as { requestBodies?: Record<string, RawRequestBody> } | undefined;
  return components?.requestBodies?.[name];
}

let cached: { document: Record<string, unknown>; operations: Operation[] } | undefined;

export function loadSpecification(): Record<string, unknown> {
  return load().document;
}

/** Every operation of openapi.yaml with the access rules the server enforces. */
export function listOperations(): Operation[] {
  return load().operations;
}

function load() {
  if (cached) return cached;
  const document = parse(fs.readFileSync(OPENAPI_PATH, 'utf8')) as Record<string, unknown>;
  const paths = (document.paths ?? {}) as Record<string, Record<string, RawOperation>>;
  const operations: Operation[] = [];
  for (const [route, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const raw = item[method];
      if (!raw) continue;
      if (!raw.operationId) throw new Error(`openapi.yaml: ${method.toUpperCase()} ${route} has no operationId`);
      operations.push({
        operationId: raw.operationId,
        method: method.toUpperCase() as Operation['method'],
        path: route,
        tags: raw.tags ?? [],
        access: raw['x-access'] ?? 'permission',
        scope: raw['x-scope'] ?? {},
        receipts: raw['x-receipts'] === true,
        ...(raw['x-body-limit'] === undefined ? {} : { bodyLimit: raw['x-body-limit'] }),
        ...bodyOf(document, raw),
      });
    }
  }
  cached = { document, operations };
  return cached;
}
