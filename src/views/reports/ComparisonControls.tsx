import { HTMLSelect, Switch } from '@blueprintjs/core';
import { useId } from 'react';
import { COMPARE_RULE_LABELS, COMPARE_RULES, type CompareRule } from '../../domain/comparisons';

/** A rule the comparison select offers, and its name there. */
export interface ComparisonRuleOption<TRule extends string> {
  readonly rule: TRule;
  readonly label: string;
}

/**
 * What a page's growth figures compare with: the previous period, the same weekdays last year or last year with
 * its festivals met, and like-for-like outlets only. The page's report machine keeps the choice (report.compare),
 * and the page's address with it. A page with a rule of its own offers its rules instead (`rules`: Sales Trends'
 * 'Same month last year' before the shared ones).
 */
export function ComparisonControls<TRule extends string = CompareRule>({
  value,
  onChange,
  disabled = false,
  previousLabel = COMPARE_RULE_LABELS.previous,
  rules,
  likeForLike = true,
  likeForLikeDisabled = false,
}: {
  value: { readonly rule: TRule; readonly likeForLike: boolean };
  onChange: (choice: { rule: TRule; likeForLike: boolean }) => void;
  disabled?: boolean;
  /** What the previous period is on this page ('Previous whole weeks' on an outlet's page, §9). */
  previousLabel?: string;
  /** The rules offered, in order (default: the shared ones, the previous period named `previousLabel`). */
  rules?: readonly ComparisonRuleOption<TRule>[];
  /** Offer like-for-like outlets (not on a page of one outlet). */
  likeForLike?: boolean;
  /** Like-for-like does not apply to the rule chosen (Sales Trends' own rule): shown off and not to be turned on. */
  likeForLikeDisabled?: boolean;
}) {
  const id = useId();
  const options: readonly ComparisonRuleOption<string>[] =
    rules ??
    COMPARE_RULES.map((rule) => ({
      rule,
      label: rule === 'previous' ? previousLabel : COMPARE_RULE_LABELS[rule],
    }));
  return (
    <div className="comparison-controls" data-testid="comparison-controls">
      <label htmlFor={id} className="comparison-controls-label">
        Compare with
      </label>
      <HTMLSelect
        id={id}
        data-testid="comparison-rule"
        value={value.rule}
        disabled={disabled}
        onChange={(event) => onChange({ ...value, rule: event.currentTarget.value as TRule })}
        options={options.map((option) => ({ value: option.rule, label: option.label }))}
      />
      {likeForLike ? (
        <Switch
          data-testid="comparison-like-for-like"
          className="comparison-controls-switch"
          label="Like-for-like outlets"
          checked={value.likeForLike && !likeForLikeDisabled}
          disabled={disabled || likeForLikeDisabled}
          onChange={(event) => onChange({ ...value, likeForLike: event.currentTarget.checked })}
        />
      ) : null}
    </div>
  );
}
