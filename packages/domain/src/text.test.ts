import { describe, expect, it } from 'vitest';
import {
  collapseSpaces,
  isPrintable,
  MAX_TEXT_LINES,
  normalizeDocumentNumber,
  normalizeName,
  normalizeText,
  textPolicyError,
  textPolicyIssue,
  textPolicyMessage,
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

describe('text policy: invisible, stacked, too many lines, unprintable (issue 33 items 9 and 10)', () => {
  it('refuses invisible characters: RLM, LRM, ALM, zero-width space and joiners, BOM, soft hyphen', () => {
    for (const cp of [0x200f, 0x200e, 0x061c, 0x200b, 0x200c, 0x200d, 0xfeff, 0x00ad, 0x2060, 0xfe0f]) {
      const bad = `Nov${String.fromCodePoint(cp)}ák`;
      expect(textPolicyError(bad), cp.toString(16)).toBe('invalidCharacters');
      expect(textPolicyError(bad, { multiline: true }), cp.toString(16)).toBe('invalidCharacters');
    }
  });
  it('allows up to 4 combining marks on a letter, refuses 5 and the 499 of the attack', () => {
    expect(textPolicyError('e\u0302\u0323 Vi\u1EC7t')).toBeNull();
    expect(textPolicyError(`a${'\u0301'.repeat(4)}`)).toBeNull();
    expect(textPolicyError(`a${'\u0301'.repeat(5)}`)).toBe('invalidCharacters');
    expect(textPolicyError(`a${'\u0301'.repeat(499)}`, { multiline: true })).toBe('invalidCharacters');
    // A precomposed letter counts its own mark.
    expect(textPolicyError(`\u00E1${'\u0301'.repeat(4)}`)).toBe('invalidCharacters');
  });
  it(`allows ${MAX_TEXT_LINES} line breaks in a multi-line text, not one more (CRLF is one)`, () => {
    const lines = (n: number, br = '\n') => Array.from({ length: n + 1 }, (_, i) => `line ${i}`).join(br);
    expect(textPolicyError(lines(20), { multiline: true })).toBeNull();
    expect(textPolicyError(lines(20, '\r\n'), { multiline: true })).toBeNull();
    expect(textPolicyIssue(lines(21), { multiline: true })).toEqual({
      key: 'tooManyLines',
      params: { max: 20 },
    });
    expect(textPolicyError(`a${'\n'.repeat(140)}VYJÁDŘENÍ ÚŘADU`, { multiline: true })).toBe('tooManyLines');
    expect(textPolicyError(`a${'\n'.repeat(140)}`, { multiline: true })).toBeNull(); // outer white space
  });
  it('refuses a character the PDF font cannot print, naming the first one', () => {
    expect(textPolicyIssue('Praha 中文 한')).toEqual({
      key: 'unprintableCharacters',
      params: { char: '中', code: 'U+4E2D' },
    });
    expect(textPolicyIssue('a\u{1F924}b')).toEqual({
      key: 'unprintableCharacters',
      params: { char: '\u{1F924}', code: 'U+1F924' },
    });
    expect(textPolicyError('\uE000')).toBe('unprintableCharacters');
    expect(
      textPolicyMessage({ key: 'unprintableCharacters', params: { char: '中', code: 'U+4E2D' } }),
    ).toContain('U+4E2D');
  });
  it('admits Czech, Slovak, German, Polish, Greek, Cyrillic, the declarations’ boxes', () => {
    const all = 'ÁČĎÉĚÍŇÓŘŠŤÚŮÝŽáčďéěíňóřšťúůýž ĹĽŔÄÔ äöüß ąęłńśźż ΑΩαω АЯая ☐☒ € § – „“';
    expect(textPolicyError(all)).toBeNull();
    for (const char of all.replace(/ /g, ''))
      expect(isPrintable(char.codePointAt(0) as number), char).toBe(true);
  });
});
