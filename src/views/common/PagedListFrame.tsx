import { Button, Classes, NonIdealState } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import type { ReactNode } from 'react';
import { formatNumber } from '../../domain/format';

export interface PagedListWording {
  /** 'The audit log could not be read.' */
  readonly failure: string;
  readonly emptyIcon: IconName;
  /** Under 'No Data': 'No change matches these filters.' */
  readonly empty: string;
  /** What the count counts: ['change', 'changes']. */
  readonly unit: readonly [string, string];
  /** Test ids: `${testId}-retry`, `${testId}-total`. */
  readonly testId: string;
}

/**
 * A paged list's states around its table: a failed list shows why and a retry, an empty one 'No Data'; otherwise
 * the count (blank while loading) and the table with its pager.
 */
export function PagedListFrame({
  wording,
  failed,
  empty,
  loading,
  total,
  onRetry,
  children,
}: {
  readonly wording: PagedListWording;
  readonly failed: boolean;
  readonly empty: boolean;
  readonly loading: boolean;
  readonly total: number;
  readonly onRetry: () => void;
  readonly children: ReactNode;
}) {
  if (failed) {
    return (
      <NonIdealState
        icon="error"
        title={wording.failure}
        description="Please try again."
        action={
          <Button icon="refresh" data-testid={`${wording.testId}-retry`} onClick={onRetry}>
            Retry
          </Button>
        }
      />
    );
  }
  if (empty) return <NonIdealState icon={wording.emptyIcon} title="No Data" description={wording.empty} />;
  const [one, many] = wording.unit;
  return (
    <>
      <div className={Classes.TEXT_MUTED} data-testid={`${wording.testId}-total`}>
        {loading ? '' : `${formatNumber(total)} ${total === 1 ? one : many}`}
      </div>
      {children}
    </>
  );
}
