import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'outlined' | 'link';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** 'l' for the main action of a screen. */
  size?: 'm' | 'l';
  /** Full width on phones (below 30em). */
  expandMobile?: boolean;
  children: ReactNode;
  /** React 19: a ref is a prop (the dialogs focus their first button). */
  ref?: Ref<HTMLButtonElement>;
}

/** The gov.cz button look on a native <button> (type="button" unless told otherwise). */
export function Button({
  variant = 'primary',
  size = 'm',
  expandMobile = false,
  className,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  const classes = [
    'btn',
    `btn--${variant}`,
    `btn--${size}`,
    expandMobile ? 'btn--expand-mobile' : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <button type={type} className={classes} {...rest}>
      {children}
    </button>
  );
}

/** The class names of a button, for links (<a>, LangLink) that should look like one. */
export function buttonClass(variant: ButtonVariant = 'primary', size: 'm' | 'l' = 'm'): string {
  return `btn btn--${variant} btn--${size}`;
}
