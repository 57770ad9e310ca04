import { completeDateInput, displayToIso, isoToDisplay } from '@ros/domain';
import { useEffect, useState } from 'react';

/** A full date as typed: d.m.yyyy (spaces after the dots allowed). */
const FULL_DATE = /^\s*\d{1,2}\s*\.\s*\d{1,2}\s*\.\s*\d{4}\s*$/;

/**
 * Date entry dd.mm.yyyy (spec section 5): day and month may have one digit ("5.3.1985" becomes
 * 05.03.1985 when the box is left). A day alone or a day and month are not completed with this
 * month or year (issue 22): the rule says the date is incomplete. The value is ISO (YYYY-MM-DD);
 * text that is not (yet) a date is passed on as it is, so the rules report it.
 */
export function DateInput({
  id,
  value,
  onChange,
  readOnly,
  describedBy,
  invalid,
  required,
  autoComplete = 'off',
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  readOnly?: boolean;
  describedBy?: string;
  invalid?: boolean;
  /** Announced as required (aria-required). */
  required?: boolean;
  /** The date's own autocomplete token (a birth date: 'bday'). */
  autoComplete?: string;
}) {
  const [text, setText] = useState(() => isoToDisplay(value) ?? value);

  // Follow a value set from outside (draft, prefill).
  useEffect(() => {
    setText((current) => {
      const iso = FULL_DATE.test(current) ? displayToIso(current) : current;
      return iso === value ? current : (isoToDisplay(value) ?? value);
    });
  }, [value]);

  return (
    <input
      id={id}
      className="input"
      type="text"
      inputMode="decimal"
      autoComplete={autoComplete}
      maxLength={14}
      readOnly={readOnly}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      aria-required={required || undefined}
      value={text}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        onChange(FULL_DATE.test(next) ? (displayToIso(next) ?? next) : next);
      }}
      onBlur={() => {
        if (readOnly || text.trim() === '') return;
        const full = completeDateInput(text);
        if (full) {
          setText(full);
          onChange(displayToIso(full) ?? full);
        }
      }}
    />
  );
}
