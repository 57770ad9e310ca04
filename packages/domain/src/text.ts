// Text normalisation shared by the server's person search and the form.

/**
 * Normalises a personal name for comparison: trims, lower-cases, strips diacritics
 * (NFD decomposition, combining marks removed) and collapses inner whitespace.
 * 'Šťastná  Nováková ' -> 'stastna novakova'.
 */
export function normalizeName(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('cs').replace(/\s+/gu, ' ').trim();
}

/** Normalises a document number for comparison: removes all whitespace, upper-cases. */
export function normalizeDocumentNumber(s: string): string {
  return s.replace(/\s+/gu, '').toUpperCase();
}

/** Trims and collapses inner whitespace without changing case or diacritics. */
export function collapseSpaces(s: string): string {
  return s.replace(/\s+/gu, ' ').trim();
}
