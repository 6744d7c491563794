import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Pool } from '../db/pool.js';
import type { Mailer } from '../mail/mailer.js';

export interface RouteDeps {
  pool: Pool;
  config: Config;
  mailer: Mailer;
}

export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Handlers of one area, keyed by the operationId of openapi.yaml. */
export type Handlers = Record<string, Handler>;
