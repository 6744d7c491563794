/**
 * The positional parameters of one SQL statement: `add` keeps a value and answers its placeholder (`$1`, `$2`,
 * ... in the order added, with an optional cast such as `::int[]`); `values` goes with the statement to query.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  constructor(...first: unknown[]) {
    this.values.push(...first);
  }

  add(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

/** `text` for a LIKE / ILIKE pattern that matches it literally: `%`, `_` and the escape character `\` escaped. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}
