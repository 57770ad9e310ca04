import type { ReactNode } from 'react';
import { InfoTip } from '../components/Tooltip';
import { useT } from '../shell/translate';

export interface FieldProps {
  id: string;
  label: string;
  hint?: string;
  /** Adds "(optional)" to the label. */
  optional?: boolean;
  /** The message shown under the control; empty = none. */
  error?: string;
  /**
   * What the field is, for fields whose meaning is not obvious: an info button beside the label
   * shows it as a tooltip. The hint stays under the label (phones cannot hover).
   */
  info?: string;
  /** A group of controls (radio buttons, a list) gets a fieldset and legend instead of a label. */
  className?: string;
  children: (describedBy: string | undefined, invalid: boolean) => ReactNode;
}

/**
 * One labelled control with its hint and its first error, linked by aria-describedby
 * (the design system does not link them itself).
 */
export function Field({ id, label, hint, optional, error, info, className, children }: FieldProps) {
  const { t } = useT();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const labelElement = (
    <label htmlFor={id} className="field__label">
      {label}
      {optional && <span className="field__optional"> {t('FORM.OPTIONAL')}</span>}
    </label>
  );
  return (
    <div className={`field${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      {info ? (
        // The button sits beside the label, not in it: a label must not hold another control.
        <div className="field__label-row">
          {labelElement}
          <InfoTip label={t('FORM.TOOLTIPS.INFO_LABEL', { field: label })} content={info} theme="light" />
        </div>
      ) : (
        labelElement
      )}
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
