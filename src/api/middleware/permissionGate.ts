import type { Middleware } from 'openapi-fetch';
import {
  hasPermission,
  isAuthEndpoint,
  isExemptFromPermissions,
  isRequestAllowed,
  requestPathOf,
} from '../../domain/permissions';
import type { paths } from '../schema';
import { getPermissionsList } from '../session';

/** Thrown from `onRequest` so that openapi-fetch rejects the call before anything is sent. */
export class ApiRequestCancelled extends Error {
  readonly method: string;
  readonly path: string;

  constructor(method: string, path: string) {
    super(`Request cancelled: ${method} ${path} is not in the permissions list`);
    this.name = 'ApiRequestCancelled';
    this.method = method;
    this.path = path;
  }
}

/** Cancels every call that no `path::Action` pair of the session allows (§6). */
export const permissionGateMiddleware: Middleware = {
  onRequest({ request, schemaPath }) {
    // Authentication endpoints, payment URLs and the password change are never gated.
    if (isAuthEndpoint(schemaPath) || isExemptFromPermissions(schemaPath)) return undefined;
    const path = requestPathOf(request.url);
    const permissions = getPermissionsList();
    // The pair may name the concrete path or the schema path (`/things/{id}`), as the server accepts.
    if (isRequestAllowed(permissions, path, request.method) || hasPermission(permissions, schemaPath, request.method)) {
      return undefined;
    }
    throw new ApiRequestCancelled(request.method, path);
  },
};

/**
 * Whether the gate lets a call of an operation (the contract's path, its method) through with the session's
 * permissions: a machine asks it before it offers a write that the gate would cancel.
 */
export function isCallAllowed(path: keyof paths, method: 'GET' | 'POST' | 'PUT' | 'DELETE'): boolean {
  return isRequestAllowed(getPermissionsList(), path, method);
}

/**
 * Whether the session's permissions hold a pair for the operation: what a page asks before it offers a choice the
 * server would refuse, where the gate itself lets the call through anyway (§6 exempts payment URLs).
 */
export function isCallGranted(path: keyof paths, method: 'GET' | 'POST' | 'PUT' | 'DELETE'): boolean {
  return hasPermission(getPermissionsList(), path, method);
}
