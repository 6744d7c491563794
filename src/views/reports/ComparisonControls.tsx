import { HTMLSelect, Switch } from '@blueprintjs/core';
import { useId } from 'react';
import { COMPARE_RULE_LABELS, COMPARE_RULES, type CompareRule, type ComparisonChoice } from '../../domain/comparisons';

/**
 * What a page's growth figures compare with: the previous period, the same weekdays last year or last year with
 * its festivals met, and like-for-like outlets only. The page's report machine keeps the choice (report.compare),
 * and the page's address with it.
 */
export function ComparisonControls({
  value,
  onChange,
  disabled = false,
  previousLabel = COMPARE_RULE_LABELS.previous,
  likeForLike = true,
}: {
  value: ComparisonChoice;
  onChange: (choice: ComparisonChoice) => void;
  disabled?: boolean;
  /** What the previous period is on this page ('Previous whole weeks' on an outlet's page, §9). */
  previousLabel?: string;
  /** Offer like-for-like outlets (not on a page of one outlet). */
  likeForLike?: boolean;
}) {
  const id = useId();
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
        onChange={(event) => onChange({ ...value, rule: event.currentTarget.value as CompareRule })}
        options={COMPARE_RULES.map((rule) => ({
          value: rule,
          label: rule === 'previous' ? previousLabel : COMPARE_RULE_LABELS[rule],
        }))}
      />
      {likeForLike ? (
        <Switch
          data-testid="comparison-like-for-like"
          className="comparison-controls-switch"
          label="Like-for-like outlets"
          checked={value.likeForLike}
          disabled={disabled}
          onChange={(event) => onChange({ ...value, likeForLike: event.currentTarget.checked })}
        />
      ) : null}
    </div>
  );
}
