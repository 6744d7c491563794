import { Button } from '@blueprintjs/core';

/** The delete button of a settings table's row: a small red bin named 'Delete {name}'. */
export function RowDeleteButton(props: {
  /** What the row is called (its button's accessible name says it). */
  readonly name: string;
  readonly testId: string;
  readonly disabled: boolean;
  /** This row's deletion is under way. */
  readonly loading?: boolean;
  readonly onDelete: () => void;
}) {
  return (
    <Button
      size="small"
      icon="trash"
      intent="danger"
      variant="minimal"
      aria-label={`Delete ${props.name}`}
      data-testid={props.testId}
      loading={props.loading === true}
      disabled={props.disabled}
      onClick={props.onDelete}
    />
  );
}
