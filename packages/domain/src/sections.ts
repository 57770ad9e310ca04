// The sections of the request form (spec section 2), in page order, and in which requests each
// is shown. The web's step 2 (RequestForm) and the PDF (server pdf/model.ts) both lay the request
// out by this list; a field's section is its catalogue entry's (fields.ts), and a field is hidden
// in a mode exactly when its section is (or its entry says so itself: sex, other citizenships).

/** Which requests have a section or a field: a new one only, a duplicate one only (absent: both). */
export type RequestKind = 'new' | 'duplicate';

export const FORM_SECTIONS = [
  { name: 'personal' },
  { name: 'birth', only: 'new' },
  { name: 'identity' },
  { name: 'home' },
  { name: 'contact_address' },
  { name: 'contact' },
  { name: 'employer', only: 'new' },
  { name: 'activities', only: 'new' },
  { name: 'abroad', only: 'new' },
  { name: 'duplicate', only: 'duplicate' },
] as const satisfies ReadonlyArray<{ name: string; only?: RequestKind }>;

export type SectionName = (typeof FORM_SECTIONS)[number]['name'];

/** Is something that exists only in `only` requests (undefined: in both) part of this one? */
export function inRequest(only: RequestKind | undefined, ctx: { readonly duplicate: boolean }): boolean {
  return only === undefined || only === (ctx.duplicate ? 'duplicate' : 'new');
}

/** In which requests a section is shown (undefined: both). */
export function sectionOnly(name: SectionName): RequestKind | undefined {
  const section = FORM_SECTIONS.find((s) => s.name === name);
  return section && 'only' in section ? section.only : undefined;
}

/** Is the section shown in this mode (duplicate mode hides birth, employer, activities and abroad)? */
export function isSectionShown(name: SectionName, ctx: { readonly duplicate: boolean }): boolean {
  return inRequest(sectionOnly(name), ctx);
}
