import { describe, expect, it } from 'vitest';
import {
  collapseSpaces,
  normalizeDocumentNumber,
  normalizeName,
  normalizeText,
  textPolicyError,
} from './text.js';

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

describe('textPolicyError (issue 11)', () => {
  it('accepts names and free text in any script, with outer white space', () => {
    for (const ok of ['Štěpán', "O'Brien-Müller", '  Zoë\t', 'Łódź 😀', 'עברית', 'Dvor\u030Cák']) {
      expect(textPolicyError(ok)).toBeNull();
    }
  });
  it('refuses control characters, lone surrogates and bidirectional overrides', () => {
    for (const bad of [
      'a\u0000b',
      'a\tb',
      'a\nb',
      'a\u0085b',
      'a\u007Fb',
      'a\uD800b',
      'a\uDC00',
      'a\u202Eb',
      'a\u2066b',
    ]) {
      expect(textPolicyError(bad), JSON.stringify(bad)).toBe('invalidCharacters');
    }
  });
  it('lets a multi-line text keep tabs and line breaks, nothing else', () => {
    expect(textPolicyError('line 1\r\nline 2\tend', { multiline: true })).toBeNull();
    expect(textPolicyError('a\u0000b', { multiline: true })).toBe('invalidCharacters');
  });
  it('normalizeText composes letters (NFC)', () => {
    expect(normalizeText('Dvor\u030Cák')).toBe('Dvořák');
  });
});
