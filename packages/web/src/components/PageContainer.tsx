import type { ReactNode } from 'react';

/** The centred page column (max 75rem, with side padding); `narrow` for reading width (48rem). */
export function PageContainer({ narrow = false, children }: { narrow?: boolean; children: ReactNode }) {
  return <div className={narrow ? 'container container--narrow' : 'container'}>{children}</div>;
}
