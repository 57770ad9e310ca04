import type { ReactNode } from 'react';
import { useT } from '../../shell/translate';

/**
 * A section of step 2 as a card with its heading (FORM.SECTIONS.<name>; ids section-<name> and
 * section-<name>-title): the fields' sections (`Section`) and the two of rows.
 */
export function SectionCard({ name, children }: { name: string; children: ReactNode }) {
  const { t } = useT();
  return (
    <section className="card form-section" aria-labelledby={`section-${name}-title`} id={`section-${name}`}>
      <h2 id={`section-${name}-title`}>{t(`FORM.SECTIONS.${name}`)}</h2>
      {children}
    </section>
  );
}
