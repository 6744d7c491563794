/**
 * Names a model state by its id path (`#model.parent.child`) from `stateKey`'s text (a plain name or the
 * JSON of a nested state value), so that a `states` map of a nested model can use `#id` keys, which
 * @xstate/test matches exactly (a plain key would also match every ancestor's test).
 */
export function modelStateId(modelId: string, key: string): string {
  const path: string[] = [];
  let value: unknown = key.startsWith('{') ? JSON.parse(key) : key;
  while (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    const [first] = entries;
    if (!first || entries.length !== 1) throw new Error(`not a single nested state: ${key}`);
    path.push(first[0]);
    value = first[1];
  }
  if (typeof value === 'string') path.push(value);
  return `#${[modelId, ...path].join('.')}`;
}
