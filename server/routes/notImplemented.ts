import { HttpError } from '../errors.js';
import type { AreaHandlers, Handler, OperationId } from './types.js';

/** The handler of an operation that is in the contract but not built yet: 501 with its name. */
export function notImplemented<Id extends OperationId>(operationId: Id): Handler<Id> {
  return async () => {
    throw new HttpError(501, `${operationId} is not available yet.`);
  };
}

/**
 * Every operation of openapi.yaml that is not built yet, in one place. Building one moves its entry from here to
 * its area's handlers; the app refuses to start with an operation in both.
 */
export const unbuiltHandlers = {} satisfies AreaHandlers;

/** The operationIds of unbuilt operations (answer 501). */
export const NOT_IMPLEMENTED_OPERATIONS: readonly string[] = Object.keys(unbuiltHandlers);
