import type { IncomingHttpHeaders } from 'node:http';
import Ajv, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import { badRequest, HttpError } from './errors.js';
import { loadSpecification, type RequestBody } from './openapi.js';

/**
 * How requests are checked against openapi.yaml. Query strings and path parameters arrive as text, so their
 * numbers and booleans are read from it ('7' -> 7, a lone value -> a one-item array); JSON bodies already carry
 * their types, so nothing in them is coerced: `{"client_id": true}` is a wrong type, never 1.
 */

const COMMON: Options = {
  strict: false,
  useDefaults: true,
  // Unknown body fields are refused with a 400 rather than dropped without a word.
  removeAdditional: false,
  // One error is enough to name the field, and checking every rule of a huge input would be work for an attacker.
  allErrors: false,
  addUsedSchema: false,
};

const isCalendarDay = (year: number, month: number, day: number) => {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};

/** `format: date`: YYYY-MM-DD, a day that exists (no 2026-02-30, 2025-13-01 or 0000-00-00). */
export function isDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  return year >= 1 && isCalendarDay(year, month, day);
}

/** `format: local-date-time`: a day (YYYY-MM-DD), or a day and a time of day (YYYY-MM-DD HH:mm:ss) that exist. */
export function isLocalDateTime(value: string): boolean {
  if (value.length === 10) return isDay(value);
  const match = /^(\d{4}-\d{2}-\d{2}) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.exec(value);
  return match !== null && isDay(match[1] ?? '');
}

/** The contract's e-mail rule (components.schemas.Email.pattern): the one the server checks `format: email` by. */
export function contractEmailPattern(): RegExp {
  const schemas = (loadSpecification().components as { schemas: Record<string, { pattern?: string }> }).schemas;
  const pattern = schemas.Email?.pattern;
  if (!pattern) throw new Error('openapi.yaml: components.schemas.Email has no pattern');
  return new RegExp(pattern, 'u');
}

function createAjv(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({ ...COMMON, coerceTypes });
  addFormats(ajv);
  ajv.addFormat('date', isDay);
  ajv.addFormat('local-date-time', isLocalDateTime);
  const email = contractEmailPattern();
  ajv.addFormat('email', (value: string) => email.test(value));
  return ajv;
}

const textAjv = createAjv('array');
const bodyAjv = createAjv(false);

/** Bodies are compiled without coercion, everything read from the URL with it. */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object) as ValidateFunction;
};

/** What a format means, for the 400 message. */
const FORMAT_MESSAGES: Record<string, string> = {
  date: 'must be a day that exists, as YYYY-MM-DD',
  'local-date-time': 'must be a day that exists (YYYY-MM-DD) or a day and time (YYYY-MM-DD HH:mm:ss)',
  email: 'must be an e-mail address (name@domain.tld)',
};

/** The contract's pattern for free text: no control characters (NUL, line breaks, escapes). */
export const TEXT_PATTERN = '^[^\\x00-\\x1F\\x7F]*$';

function whatIsWrong(error: FastifySchemaValidationError | ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a field of this request';
    case 'format':
      return FORMAT_MESSAGES[String(params.format)] ?? error.message ?? 'is not valid';
    case 'pattern':
      return params.pattern === TEXT_PATTERN
        ? 'must not contain control characters'
        : `must match the pattern ${String(params.pattern)}`;
    default:
      return error.message ?? 'is not valid';
  }
}

/**
 * The 400 message of a request that does not match the contract: the field it is about, as the part of the
 * request and the path inside it ('querystring/endTime', 'body/data/0/outlet_id'), then what is wrong with it.
 */
export function validationMessage(errors: (FastifySchemaValidationError | ErrorObject)[], dataVar: string): string {
  const error = errors[0];
  if (!error) return `${dataVar} is not valid`;
  const params = error.params as Record<string, unknown>;
  const child =
    error.keyword === 'required'
      ? params.missingProperty
      : error.keyword === 'additionalProperties'
        ? params.additionalProperty
        : undefined;
  const path = `${dataVar}${'instancePath' in error ? error.instancePath : ''}${child === undefined ? '' : `/${String(child)}`}`;
  return `${path} ${whatIsWrong(error)}`;
}

export function schemaErrorFormatter(errors: FastifySchemaValidationError[], dataVar: string): Error {
  return new Error(validationMessage(errors, dataVar));
}

/**
 * A validator of one schema of the contract's components (with the $refs it makes), for bodies whose parts are
 * checked one by one: JSON types as given, defaults applied.
 */
export function componentValidator(name: string): ValidateFunction {
  const components = loadSpecification().components as { schemas: Record<string, unknown> };
  if (!components.schemas[name]) throw new Error(`openapi.yaml: components.schemas.${name} does not exist`);
  return bodyAjv.compile({ $ref: `#/components/schemas/${name}`, components });
}

/** The field a validator's first error is about, as a path inside the value ('items/2/sku_id'), and what is wrong. */
export function fieldError(errors: readonly ErrorObject[] | null | undefined): { field: string; message: string } {
  const message = validationMessage([...(errors ?? [])], '');
  const space = message.indexOf(' ');
  return { field: message.slice(0, space).replace(/^\//, ''), message: message.slice(space + 1) };
}

/** A Content-Type header's media type (type/subtype, lower case) and its charset parameter when it has one. */
export function parseContentType(header: string): { mediaType: string; charset: string | undefined } {
  const [essence = '', ...parameters] = header.split(';');
  let charset: string | undefined;
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    charset = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return { mediaType: essence.trim().toLowerCase(), charset };
}

/** Whether a request carries a body, by its headers (read before the body is). */
const carriesBody = (headers: IncomingHttpHeaders) =>
  headers['transfer-encoding'] !== undefined ||
  (headers['content-length'] !== undefined && headers['content-length'] !== '0');

/**
 * Refuses (415) a request to an operation that takes a body, when its body is of a media type the contract does not
 * declare for the operation: text/plain, a form, multipart, or a body without a Content-Type. Fastify binds a
 * body's schema to its media type, so a body of another type would reach the hooks and the handler without being
 * validated. JSON is UTF-8 (RFC 8259): another charset is refused too. A request without a body passes here; the
 * body's absence is a 400 after the session checks (requireBody).
 */
export function checkBodyMediaType(body: RequestBody | undefined, headers: IncomingHttpHeaders): void {
  if (!body) return;
  const declared = body.mediaTypes.join(', ');
  const header = headers['content-type'];
  if (header === undefined) {
    if (carriesBody(headers)) throw new HttpError(415, `The request body must be sent as ${declared}.`);
    return;
  }
  const { mediaType, charset } = parseContentType(header);
  if (!body.mediaTypes.includes(mediaType)) {
    throw new HttpError(415, `Content-Type ${mediaType || '(empty)'} is not accepted here; send ${declared}.`);
  }
  if (charset !== undefined && charset !== 'utf-8' && /[/+]json$/.test(mediaType)) {
    throw new HttpError(415, `JSON must be sent as UTF-8, not ${charset}.`);
  }
}

/** A required body that was not sent is a 400 naming the body, never a handler reading nothing. */
export function requireBody(body: RequestBody | undefined, value: unknown): void {
  if (body?.required && value === undefined) throw badRequest('body is required');
}

/**
 * The media types of every operation with a body: checked as the request arrives (onRequest, before any check or
 * handler of ours runs), and the body's presence once it has been read (preValidation).
 */
export function registerBodyMediaTypes(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    checkBodyMediaType(request.routeOptions.config.operation?.body, request.headers);
  });
  app.addHook('preValidation', async (request) => {
    requireBody(request.routeOptions.config.operation?.body, request.body);
  });
}
