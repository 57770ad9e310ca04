import { describe, expect, it } from 'vitest';
import { collapseSpaces, normalizeDocumentNumber, normalizeName } from './text.js';

describe('normalizeName', () => {
  it('lower-cases, strips diacritics and collapses spaces', () => {
    expect(normalizeName('  Šťastná   Nováková ')).toBe('stastna novakova');
    expect(normalizeName('ŽLUŤOUČKÝ KŮŇ')).toBe('zlutoucky kun');
    expect(normalizeName('Jan\tNepomuk\nDvořák')).toBe('jan nepomuk dvorak');
  });
  it('treats precomposed and decomposed letters the same', () => {
    expect(normalizeName('Dvor\u030Cák')).toBe(normalizeName('Dvořák'));
  });
  it('keeps hyphens and apostrophes', () => {
    expect(normalizeName("O'Brien-Müller")).toBe("o'brien-muller");
  });
  it('gives empty for blank input', () => {
    expect(normalizeName('   ')).toBe('');
  });
});

describe('normalizeDocumentNumber', () => {
  it('removes every whitespace and upper-cases', () => {
    expect(normalizeDocumentNumber(' ab 12\t34 5 ')).toBe('AB12345');
    expect(normalizeDocumentNumber('123456789')).toBe('123456789');
  });
});

describe('collapseSpaces', () => {
  it('trims and collapses without touching letters', () => {
    expect(collapseSpaces('  Nová   Ves ')).toBe('Nová Ves');
  });
});
