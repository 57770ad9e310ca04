import type { ReactNode } from 'react';
// Only these two of the design system's component styles (the rest is written for its web components).
import '@gov-design-system-ce/styles/html/components/gov-form-checkbox.css';
import '@gov-design-system-ce/styles/html/components/gov-form-radio.css';

/**
 * Checkboxes and radio buttons in the gov.cz design system's look (`gov-form-checkbox`,
 * `gov-form-radio` of @gov-design-system-ce/styles): a native input drawn large, its label
 * beside it. The input stays a real <input>, so keyboard, forms and tests work as usual.
 */
interface ChoiceProps {
  id: string;
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  name?: string;
  value?: string;
  describedBy?: string;
  required?: boolean;
  invalid?: boolean;
  'data-testid'?: string;
}

function Choice({ kind, ...p }: ChoiceProps & { kind: 'checkbox' | 'radio' }) {
  const block = kind === 'checkbox' ? 'gov-form-checkbox' : 'gov-form-radio';
  return (
    <div
      className={`${block} choice-item`}
      data-size="m"
      data-disabled={p.disabled ? 'true' : undefined}
      data-invalid={p.invalid ? 'true' : undefined}
    >
      <input
        type={kind}
        id={p.id}
        name={p.name}
        value={p.value}
        checked={p.checked}
        disabled={p.disabled}
        aria-describedby={p.describedBy}
        aria-required={p.required || undefined}
        data-testid={p['data-testid']}
        onChange={(e) => p.onChange(e.target.checked)}
      />
      <span slot="label">
        {kind === 'checkbox' && (
          <svg className="gov-form-checkbox__check" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M6.2 12.4 2.3 8.5l1.4-1.4 2.5 2.5 6.1-6.1 1.4 1.4z" />
          </svg>
        )}
        <label htmlFor={p.id}>{p.label}</label>
      </span>
    </div>
  );
}

export const Checkbox = (p: ChoiceProps) => <Choice kind="checkbox" {...p} />;
export const Radio = (p: ChoiceProps) => <Choice kind="radio" {...p} />;
