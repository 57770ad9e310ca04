import { type FormValues, fieldSpec, type SectionName, sectionFields } from '@ros/domain';
import { Fragment, type ReactNode } from 'react';
import type { Path } from 'react-hook-form';
import { CatalogueField, type CatalogueFieldProps } from './CatalogueField';
import { useRequestForm } from './context';
import { Section } from './controls';
import { RowsField, type RowsPlacement } from './widgets/RowsField';

/**
 * What a section says of one of its fields, where it says anything: its control's own props (a
 * hint, a reaction, an autocomplete of its own), a render of its own (the dial code and the
 * telephone side by side, the employer's start with its warning under it), or null: placed with
 * another (the telephone, beside its dial code); for a `rows` entry, the words and labels of its list (`list`, RowsField). A field the
 * section does not name gets its catalogue control as it is.
 */
export type Placement =
  | (Partial<Omit<CatalogueFieldProps, 'path'>> & { list?: RowsPlacement })
  | (() => ReactNode)
  | null;

/**
 * A section of step 2 drawn from the catalogue (issue 34): its fields are its entries in the
 * catalogue's order (`sectionFields` of @ros/domain: those the form has a box for, without those
 * the mode hides), each through `CatalogueField` (which takes "(optional)", the maximum length,
 * the kind's control and what turns it off from the entry; a list of rows through `RowsField`)
 * unless the section places it itself.
 * So a field added to the catalogue is in its section's page without a line here.
 */
export function SectionFields({
  name,
  place = {},
  order = [],
  intro,
}: {
  name: SectionName;
  place?: Readonly<Partial<Record<string, Placement>>>;
  /** These first, in this order, where the page's order is not the catalogue's (the employer's). */
  order?: readonly string[];
  /** What comes between the heading and the fields (an intro, the copy button). */
  intro?: ReactNode;
}) {
  const { ctx, catalogue } = useRequestForm();
  const fields = sectionFields(name, ctx, catalogue);
  const rank = (field: string) => (order.includes(field) ? order.indexOf(field) : order.length);
  return (
    <Section name={name} intro={intro}>
      {[...fields]
        .sort((a, b) => rank(a) - rank(b))
        .map((field) => {
          const placed = place[field];
          if (placed === null) return null;
          if (typeof placed === 'function') return <Fragment key={field}>{placed()}</Fragment>;
          const path = field as Path<FormValues>;
          const { list, ...props } = placed ?? {};
          // A list of rows is its kind's widget, in its section's words.
          if (fieldSpec(path, catalogue)?.kind === 'rows')
            return list ? <RowsField key={field} path={path} rows={list} /> : null;
          return <CatalogueField key={field} path={path} {...props} />;
        })}
    </Section>
  );
}
