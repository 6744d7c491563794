import { Callout, Card, Elevation, FormGroup, H1, H2, InputGroup } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '../../../domain/messages';
import './auth.css';

/**
 * The frame of the signed-out pages: the page's main landmark, a centred card with the product name (the page's
 * `h1`) and the step's title.
 */
export function AuthCard({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <main className="auth-page">
      <Card elevation={Elevation.TWO} className="auth-card">
        <H1 className="auth-product-name">{PRODUCT_NAME}</H1>
        {title !== undefined && <H2 className="auth-card-title">{title}</H2>}
        {children}
      </Card>
    </main>
  );
}

/** A row of secondary links under a form. */
export function AuthLinks({ children }: { children: ReactNode }) {
  return <div className="auth-actions">{children}</div>;
}

/**
 * A signed-out step's form: the machine's error above the fields (when `errorMessage` is set); submitting calls
 * `onSubmit` (which sends the step's event when the machine takes it) instead of posting the page.
 */
export function AuthForm({
  onSubmit,
  errorMessage,
  errorTestId,
  children,
}: {
  onSubmit: () => void;
  errorMessage: string | undefined;
  errorTestId: string;
  children: ReactNode;
}) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      noValidate
    >
      {errorMessage !== undefined && (
        <Callout intent="danger" className="auth-callout" data-testid={errorTestId}>
          {errorMessage}
        </Callout>
      )}
      {children}
    </form>
  );
}

/** The e-mail input of a signed-out step (focused first); `idPrefix` gives its id and test id (`reset-email`). */
export function EmailField({
  idPrefix,
  label,
  helperText,
  value,
  disabled,
  onChange,
}: {
  idPrefix: string;
  label: string;
  helperText?: string;
  value: string;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <FormGroup label={label} labelFor={`${idPrefix}-email`} helperText={helperText}>
      <InputGroup
        id={`${idPrefix}-email`}
        name="email"
        type="email"
        autoComplete="email"
        data-testid={`${idPrefix}-email`}
        value={value}
        disabled={disabled}
        onValueChange={onChange}
        autoFocus
      />
    </FormGroup>
  );
}
