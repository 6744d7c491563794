import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../../src/api/schema.js';
import type { Config } from '../config.js';
import type { Pool } from '../db/pool.js';
import type { DemoSsoIssuer } from '../demo/ssoIssuer.js';
import type { ExportSlots } from '../exports/exportSlots.js';
import type { ReportSubscriptionRuntime } from '../jobs/reportSubscriptions.js';
import type { Mailer } from '../mail/mailer.js';
import type { Metrics } from '../metrics.js';

export interface RouteDeps {
  pool: Pool;
  /**
   * Where report and list reads go: the replicas of DATABASE_READ_URL when one is up and caught up, else the
   * primary (server/db/replicas.ts); the primary's pool without replicas. Never for a write, a session, an access
   * check or what a user reads right after writing it.
   */
  reads: Pick<Pool, 'query'>;
  config: Config;
  mailer: Mailer;
  lifecycle: Lifecycle;
  metrics: Metrics;
  /**
   * The long exports running in this process (the receipts PDF, the report workbooks): one set of slots for all of
   * them, so EXPORTS_PER_USER and EXPORTS_MAX bound them together.
   */
  exportSlots: ExportSlots;
  /**
   * Report subscriptions' renderer (its state: whether PDFs can be rendered here), the same export slots, and
   * pg-boss once the jobs have started ("send now" queues a job).
   */
  reportSubscriptions: ReportSubscriptionRuntime;
  /**
   * The demo's identity provider shared by the instances (server/demo/ssoIssuer.ts), when this server runs it: a
   * sign-on of its domain first makes sure the stored issuer answers, taking over when it does not.
   */
  demoSso?: Pick<DemoSsoIssuer, 'domain' | 'settle'>;
}

/** Where the instance is in its life: main.ts sets `stopping` on SIGTERM, and /healthz/ready answers 503 from then. */
export interface Lifecycle {
  stopping: boolean;
}

/** Every operationId of openapi.yaml (through the generated src/api/schema.d.ts). */
export type OperationId = keyof operations;

/** A parameter group of an operation, `{}` when the operation has none (openapi-typescript writes `never`). */
type ParameterGroup<Group> = [NonNullable<Group>] extends [never] ? Record<string, never> : NonNullable<Group>;

/** The query string of an operation, as validated against openapi.yaml (defaults applied, types coerced). */
export type QueryOf<Id extends OperationId> = ParameterGroup<operations[Id]['parameters']['query']>;
/** The path parameters of an operation. */
export type ParamsOf<Id extends OperationId> = ParameterGroup<operations[Id]['parameters']['path']>;
/** The JSON request body of an operation (undefined when it takes none). */
export type BodyOf<Id extends OperationId> = operations[Id] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : undefined;

/** The JSON body of an operation's 200 response; never when it answers otherwise (a PDF, a redirect). */
export type JsonResponseOf<Id extends OperationId> = operations[Id]['responses'] extends {
  200: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** The request of an operation, with its query, path parameters and body typed from openapi.yaml. */
export type OperationRequest<Id extends OperationId> = FastifyRequest<{
  Querystring: QueryOf<Id>;
  Params: ParamsOf<Id>;
  Body: BodyOf<Id>;
}>;

/**
 * The handler of an operation. One that answers JSON returns its 200 body, and the contract's type checks it.
 * One that answers otherwise (a PDF, a redirect) sends on the reply and returns the reply it sent on: the typed
 * way out of the JSON shape, open only to operations whose 200 response is not JSON.
 */
export type Handler<Id extends OperationId> = (
  request: OperationRequest<Id>,
  reply: FastifyReply,
) => Promise<[JsonResponseOf<Id>] extends [never] ? FastifyReply : JsonResponseOf<Id>>;

/** The handler of every operation of openapi.yaml: a missing or misspelled operation is a compile error. */
export type Handlers = { [Id in OperationId]: Handler<Id> };

/** Handlers of one area: checked against their operations (`satisfies AreaHandlers`), unknown names refused. */
export type AreaHandlers = Partial<Handlers>;
