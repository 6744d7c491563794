import { COMPARE_RULES, type CompareRule, type ComparisonChoice, DEFAULT_COMPARISON } from './comparisons';
import { FILTER_QUERY_KEYS } from './filterUrl';

/**
 * A report page's choice of comparison in the URL query and back, as pure functions, beside the filters'
 * (filterUrl.ts): `?compare=festival_aligned&like_for_like=1`. The default says nothing (no `compare` for the
 * previous period, no `like_for_like` when off), so a page's plain address means the default. Only these keys
 * belong to the comparison; a query's other keys (the filters) are left alone. Reading falls back to the default
 * for a value it does not know, each key on its own.
 */

export const COMPARISON_QUERY_KEYS = {
  rule: 'compare',
  likeForLike: 'like_for_like',
} as const;

const OWNED_KEYS: readonly string[] = Object.values(COMPARISON_QUERY_KEYS);
const FILTER_KEYS: readonly string[] = Object.values(FILTER_QUERY_KEYS);

/** The value `like_for_like` has when on. */
const ON = '1';

const paramsOf = (search: string) => new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);

export function isCompareRule(value: string): value is CompareRule {
  return (COMPARE_RULES as readonly string[]).includes(value);
}

/**
 * A choice of a page whose default rule may be its own (`Default`: Sales Trends' same month last year, never said
 * in the address); every other rule is a CompareRule.
 */
export interface PageComparison<Default extends string = CompareRule> {
  readonly rule: CompareRule | Default;
  readonly likeForLike: boolean;
}

/** The choice as query parameters: none for the page's default (`defaultRule`, by default the previous period). */
export function toComparisonParams<Default extends string>(
  choice: PageComparison<Default>,
  defaultRule: CompareRule | Default = DEFAULT_COMPARISON.rule,
): URLSearchParams {
  const params = new URLSearchParams();
  if (choice.rule !== defaultRule) params.set(COMPARISON_QUERY_KEYS.rule, choice.rule);
  if (choice.likeForLike) params.set(COMPARISON_QUERY_KEYS.likeForLike, ON);
  return params;
}

/**
 * The query `search` with its comparison keys replaced by `choice`. The other keys keep their order; the
 * comparison's go just before the filters' keys, which the filter header's writes put after every key not its own
 * (withFilterQuery), so that neither write moves the other's keys. Accepts a query with or without the leading
 * '?', returns one without; '' when nothing is left.
 */
export function withComparisonQuery<Default extends string>(
  search: string,
  choice: PageComparison<Default>,
  defaultRule: CompareRule | Default = DEFAULT_COMPARISON.rule,
): string {
  const others = new URLSearchParams();
  const filters = new URLSearchParams();
  paramsOf(search).forEach((value, key) => {
    if (FILTER_KEYS.includes(key)) filters.append(key, value);
    else if (!OWNED_KEYS.includes(key)) others.append(key, value);
  });
  for (const params of [toComparisonParams(choice, defaultRule), filters]) {
    params.forEach((value, key) => {
      others.append(key, value);
    });
  }
  return others.toString();
}

/**
 * The choice `search` holds (with or without '?'): the page's default rule (`defaultRule`, by default the previous
 * period) for what it leaves out or gives an unknown value.
 */
export function parseComparisonQuery(search: string): ComparisonChoice;
export function parseComparisonQuery<Default extends string>(
  search: string,
  defaultRule: CompareRule | Default,
): PageComparison<Default>;
export function parseComparisonQuery(search: string, defaultRule: string = DEFAULT_COMPARISON.rule) {
  const params = paramsOf(search);
  const rule = params.get(COMPARISON_QUERY_KEYS.rule);
  return {
    rule: rule !== null && isCompareRule(rule) ? rule : defaultRule,
    likeForLike: params.get(COMPARISON_QUERY_KEYS.likeForLike) === ON,
  };
}

/** Whether the query already says `choice` (its comparison keys read as it, with the page's default rule). */
export function saysComparison<Default extends string>(
  search: string,
  choice: PageComparison<Default>,
  defaultRule: CompareRule | Default = DEFAULT_COMPARISON.rule,
): boolean {
  const said = parseComparisonQuery(search, defaultRule);
  return said.rule === choice.rule && said.likeForLike === choice.likeForLike;
}
