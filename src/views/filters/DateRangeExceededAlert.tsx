import { Alert, H5 } from '@blueprintjs/core';
import { DATE_RANGE_EXCEEDED_TITLE } from '../../domain/dateLimits';

export interface DateRangeExceededAlertProps {
  readonly isOpen: boolean;
  /** 'Date Range Exceeded' unless the machine says otherwise. */
  readonly title?: string | undefined;
  readonly message: string;
  readonly onClose: () => void;
}

/** The 'Date Range Exceeded' alert (§5): its title, the machine's text, one OK button. */
export function DateRangeExceededAlert({ isOpen, title, message, onClose }: DateRangeExceededAlertProps) {
  return (
    <Alert
      isOpen={isOpen}
      intent="warning"
      icon="warning-sign"
      confirmButtonText="OK"
      canEscapeKeyCancel
      canOutsideClickCancel
      onClose={() => onClose()}
    >
      <div data-testid="date-range-exceeded">
        <H5>{title ?? DATE_RANGE_EXCEEDED_TITLE}</H5>
        <p>{message}</p>
      </div>
    </Alert>
  );
}
