/**
 * Where a request goes (issue 36): the Civil Aviation Authority's postal address and data-box ID,
 * in one place for the footer, the success screen and the PDF's intro (the paper people keep).
 * As the authority publishes them on caa.gov.cz ("Kontakty"; "Povinně zveřejňované informace",
 * 4. Kontaktní spojení). To confirm with the authority before going live (docs/form.md).
 */
export const AUTHORITY = {
  name: { cs: 'Úřad pro civilní letectví', en: 'Civil Aviation Authority of the Czech Republic' },
  /** The postal address without the name (the name is on the line before, or given apart). */
  address: {
    cs: 'K Letišti 1149/23, 160 08 Praha 6',
    en: 'K Letišti 1149/23, 160 08 Prague 6, Czech Republic',
  },
  /** The authority's data box (ISDS) ID: 7 letters and digits. */
  dataBox: 'v8gaaz5',
} as const;

/** The postal address with the name, as on an envelope (the name in Czech: the post reads it). */
export function authorityPostalAddress(lang: 'cs' | 'en'): string {
  return `${AUTHORITY.name.cs}, ${AUTHORITY.address[lang]}`;
}
