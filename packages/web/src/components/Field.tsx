import type { ReactNode } from 'react';
import { InfoTip } from './Tooltip';

export interface FieldProps {
  id: string;
  label: string;
  hint?: string;
  /** The marker added to the label of an optional field ("(optional)"); absent: none. */
  optionalMarker?: string;
  /** The message shown under the control; empty = none. */
  error?: string;
  /**
   * What the field is, for fields whose meaning is not obvious: an info button beside the label
   * shows it as a tooltip. The hint stays under the label (phones cannot hover).
   */
  info?: string;
  /** The info button's accessible name (its texts come from whoever places the field). */
  infoLabel?: string;
  /** A group of controls (radio buttons, a list) gets a fieldset and legend instead of a label. */
  className?: string;
  children: (describedBy: string | undefined, invalid: boolean) => ReactNode;
}

/**
 * One labelled control with its hint and its first error, linked by aria-describedby
 * (the design system does not link them itself). The form places it with its words
 * (form/LabelledField.tsx).
 */
export function Field({
  id,
  label,
  hint,
  optionalMarker,
  error,
  info,
  infoLabel,
  className,
  children,
}: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const labelElement = (
    <label htmlFor={id} className="field__label">
      {label}
      {optionalMarker && <span className="field__optional"> {optionalMarker}</span>}
    </label>
  );
  return (
    <div className={`field${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      {info ? (
        // The button sits beside the label, not in it: a label must not hold another control.
        <div className="field__label-row">
          {labelElement}
          <InfoTip label={infoLabel ?? label} content={info} theme="light" />
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
