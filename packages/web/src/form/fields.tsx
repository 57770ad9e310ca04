import type { ReactNode } from 'react';
import type { FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** The text of a domain message key (VALIDATION.<key>), with its values ({max} …). */
export function useValidationText(): (error: FieldError | undefined, max?: number) => string {
  const { t, i18n } = useTranslation();
  return (error, max) => {
    if (!error) return '';
    const key = typeof error.message === 'string' && error.message !== '' ? error.message : 'unknown';
    const full = `VALIDATION.${key}`;
    return i18n.exists(full) ? t(full, { max: max ?? '' }) : t('VALIDATION.unknown');
  };
}

export interface FieldProps {
  id: string;
  label: string;
  hint?: string;
  /** The message shown under the control; empty = none. */
  error?: string;
  children: (describedBy: string | undefined, invalid: boolean) => ReactNode;
}

/**
 * One labelled control with its hint and its first error, linked by aria-describedby
 * (the design system does not link them itself).
 */
export function Field({ id, label, hint, error, children }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {children(describedBy, Boolean(error))}
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
