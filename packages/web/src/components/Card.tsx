import type { HTMLAttributes, ReactNode } from 'react';

export interface CardProps extends HTMLAttributes<HTMLElement> {
  /** Visual accent: a coloured top border. */
  tone?: 'neutral' | 'primary' | 'success' | 'warning' | 'danger';
  /** Render as <section> (with a heading inside) or a plain <div>. */
  as?: 'section' | 'div' | 'article';
  children: ReactNode;
}

/** A white panel with a border and padding: groups one block of content or form fields. */
export function Card({ tone = 'neutral', as: Tag = 'div', className, children, ...rest }: CardProps) {
  return (
    <Tag className={`card card--${tone}${className ? ` ${className}` : ''}`} {...rest}>
      {children}
    </Tag>
  );
}
