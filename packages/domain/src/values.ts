// What a value of the request form is (spec section 3), by its catalogue entry: the type an
// entry's kind gives its value (ValueOf), and the codes of the fixed choices. No field's name is
// written here: the fields, their names and the shape of the values (FormValues, FormFieldName,
// FORM_FIELDS) are the catalogue's (fields.ts), derived from its entries. So the modules the
// catalogue is made of (kinds.ts, conditions.ts, sections.ts) can import this one without a
// cycle, and neither imports fields.ts.

/** sex: 1 Male, 2 Female, 0 Unspecified; '' while nothing is chosen. */
export const SEX_CODES = ['1', '2', '0'] as const;
export type SexCode = '' | (typeof SEX_CODES)[number];

/** Past activity type: 1 Employment, 2 Education, 3 Other; '' while nothing is chosen. */
export const ACTIVITY_TYPES = ['1', '2', '3'] as const;
export type ActivityTypeCode = '' | (typeof ACTIVITY_TYPES)[number];

/**
 * The type of the value an entry holds, by its kind: a boolean (`boolean`), a list of strings (a
 * list of codes, `items`), rows of such values by column (`rows`), one of its codes or '' (a
 * `choice`), else a string ('' when empty: every text, code and date kind).
 */
export type ValueOf<Spec> = Spec extends { kind: 'boolean' }
  ? boolean
  : Spec extends { kind: 'items' }
    ? string[]
    : Spec extends { kind: 'rows'; columns: infer Columns }
      ? Array<{ -readonly [C in keyof Columns]: ValueOf<Columns[C]> }>
      : Spec extends { kind: 'choice'; options: ReadonlyArray<infer Code> }
        ? '' | Code
        : string;
