import type { HTMLAttributes } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Field } from '../LabelledField';

/**
 * A required text box of the search step: `Field`'s label, hint and message, linked by
 * aria-describedby. Its id is the name it is registered under.
 */
export function SearchTextField({
  registration,
  label,
  hint,
  error,
  inputMode,
  autoComplete,
  maxLength,
  readOnly,
  disabled,
}: {
  registration: UseFormRegisterReturn;
  label: string;
  hint?: string;
  /** The message to show; empty = none. */
  error: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  autoComplete: string;
  maxLength: number;
  readOnly?: boolean;
  disabled?: boolean;
}) {
  const id = registration.name;
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      {(describedBy, invalid) => (
        <input
          id={id}
          className="input"
          inputMode={inputMode}
          autoComplete={autoComplete}
          maxLength={maxLength}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          aria-required="true"
          readOnly={readOnly}
          disabled={disabled}
          {...registration}
        />
      )}
    </Field>
  );
}
