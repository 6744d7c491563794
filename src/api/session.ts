/**
 * What the API layer remembers about the session between calls: the anti-forgery token sent on
 * every non-GET call and the `path::Action` list that gates requests, plus a tiny typed event
 * channel through which the middleware reports 401 and 403 responses to the auth machine.
 */

let csrfToken: string | undefined;
let permissionsList: readonly string[] = [];

export function setCsrfToken(token: string | undefined): void {
  csrfToken = token === '' ? undefined : token;
}

export function getCsrfToken(): string | undefined {
  return csrfToken;
}

export function setPermissionsList(list: readonly string[]): void {
  permissionsList = [...list];
}

export function getPermissionsList(): readonly string[] {
  return permissionsList;
}

/** Forgets the token and the permissions (on logout). */
export function clearSession(): void {
  csrfToken = undefined;
  permissionsList = [];
}

export type ApiEvent =
  | { readonly type: 'unauthorized'; readonly message: string; readonly path: string }
  | { readonly type: 'forbidden'; readonly path: string };

export type ApiEventType = ApiEvent['type'];
export type ApiEventOf<T extends ApiEventType> = Extract<ApiEvent, { type: T }>;
export type ApiEventListener<T extends ApiEventType> = (event: ApiEventOf<T>) => void;

type ListenerRegistry = { [T in ApiEventType]: Set<ApiEventListener<T>> };

const listeners: ListenerRegistry = {
  unauthorized: new Set(),
  forbidden: new Set(),
};

/** Subscribes to one kind of API event; returns the unsubscribe function. */
export function onApiEvent<T extends ApiEventType>(type: T, listener: ApiEventListener<T>): () => void {
  const registry: Set<ApiEventListener<T>> = listeners[type];
  registry.add(listener);
  return () => {
    registry.delete(listener);
  };
}

export function emitApiEvent<T extends ApiEventType>(event: ApiEventOf<T> & { type: T }): void {
  const registry: Set<ApiEventListener<T>> = listeners[event.type];
  for (const listener of [...registry]) listener(event);
}
