import type { AnyActorRef } from 'xstate';

/**
 * A snapshot's running child by id, typed by its machine's `types.children` (or the ids of its top-level invokes),
 * so that tests reach a child without a cast; fails, naming the child, when it does not run.
 */
export function childOf<
  TChildren extends Record<string, AnyActorRef | undefined>,
  TId extends keyof TChildren & string,
>(snapshot: { readonly children: TChildren }, id: TId): NonNullable<TChildren[TId]> {
  const child = snapshot.children[id];
  if (!child) throw new Error(`no child '${id}'`);
  return child;
}
