import { Button, InputGroup } from '@blueprintjs/core';
import { useState } from 'react';

export interface SearchFormProps {
  /** The input's placeholder and accessible name. */
  readonly label: string;
  /** The text the input starts with. */
  readonly initial?: string;
  readonly disabled?: boolean;
  /** The longest text the call takes. */
  readonly maxLength?: number;
  readonly onSearch: (text: string) => void;
  readonly className?: string;
  readonly inputTestId?: string;
  readonly buttonTestId?: string;
}

/** A search box with its Search button: the text is sent when submitted (Enter or the button). */
export function SearchForm({
  label,
  initial = '',
  disabled = false,
  maxLength,
  onSearch,
  className,
  inputTestId,
  buttonTestId,
}: SearchFormProps) {
  const [text, setText] = useState(initial);
  return (
    <form
      className={className ? `search-form ${className}` : 'search-form'}
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text);
      }}
    >
      <InputGroup
        leftIcon="search"
        placeholder={label}
        aria-label={label}
        data-testid={inputTestId}
        value={text}
        maxLength={maxLength}
        disabled={disabled}
        onChange={(event) => setText(event.currentTarget.value)}
      />
      <Button type="submit" text="Search" disabled={disabled} data-testid={buttonTestId} />
    </form>
  );
}
