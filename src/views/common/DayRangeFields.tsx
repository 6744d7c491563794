import { FormGroup, InputGroup } from '@blueprintjs/core';

/**
 * A dialog's first and last day (`YYYY-MM-DD` date inputs), ids and test ids `<prefix>-start` and `<prefix>-end`:
 * the calendar's holidays and the malls' events.
 */
export function DayRangeFields({
  prefix,
  start,
  end,
  onChange,
  disabled,
}: {
  readonly prefix: string;
  readonly start: string;
  readonly end: string;
  readonly onChange: (field: 'start' | 'end', value: string) => void;
  readonly disabled: boolean;
}) {
  const fields = [
    { field: 'start', label: 'First day', value: start },
    { field: 'end', label: 'Last day', value: end },
  ] as const;
  return (
    <>
      {fields.map(({ field, label, value }) => (
        <FormGroup key={field} label={label} labelFor={`${prefix}-${field}`}>
          <InputGroup
            id={`${prefix}-${field}`}
            data-testid={`${prefix}-${field}`}
            type="date"
            value={value}
            onValueChange={(next) => onChange(field, next)}
            disabled={disabled}
          />
        </FormGroup>
      ))}
    </>
  );
}
