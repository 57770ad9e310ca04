import { MESSAGE_KEYS } from '@ros/domain';
import { describe, expect, it } from 'vitest';
import { mergedTranslations } from '../test/i18n';
import { compareTranslations, flattenTranslations, mergeTranslationFiles } from './merge';

describe('mergeTranslationFiles', () => {
  it('deep-merges groups spread over several files', () => {
    const merged = mergeTranslationFiles([
      { file: 'cs/a.json', data: { FORM: { LOADING: 'Načítání' } } },
      { file: 'cs/b.json', data: { FORM: { STEP: { TITLE: 'Krok' } }, HOME: { X: 'y' } } },
    ]);
    expect(merged).toEqual({ FORM: { LOADING: 'Načítání', STEP: { TITLE: 'Krok' } }, HOME: { X: 'y' } });
  });

  it('fails on a key defined in two files, naming both', () => {
    expect(() =>
      mergeTranslationFiles([
        { file: 'cs/a.json', data: { FORM: { LOADING: 'A' } } },
        { file: 'cs/b.json', data: { FORM: { LOADING: 'B' } } },
      ]),
    ).toThrow(/FORM\.LOADING.*cs\/a\.json.*cs\/b\.json/);
  });

  it('fails when one file has a text and another a group under the same key', () => {
    expect(() =>
      mergeTranslationFiles([
        { file: 'cs/a.json', data: { FORM: 'text' } },
        { file: 'cs/b.json', data: { FORM: { LOADING: 'B' } } },
      ]),
    ).toThrow(/"FORM"/);
    expect(() =>
      mergeTranslationFiles([
        { file: 'cs/a.json', data: { FORM: { LOADING: 'B' } } },
        { file: 'cs/b.json', data: { FORM: 'text' } },
      ]),
    ).toThrow(/"FORM"/);
  });

  it('rejects a file that is not an object and a value that is not text', () => {
    expect(() => mergeTranslationFiles([{ file: 'cs/a.json', data: ['x'] }])).toThrow(/cs\/a\.json/);
    expect(() => mergeTranslationFiles([{ file: 'cs/a.json', data: { A: 1 } }])).toThrow(/"A"/);
  });
});

describe('compareTranslations', () => {
  it('reports a key missing in either language and an empty text', () => {
    const problems = compareTranslations(
      { lang: 'cs', tree: { A: 'a', B: { C: '' } } },
      { lang: 'en', tree: { A: 'a', D: 'd', B: { C: 'c' } } },
    );
    expect(problems).toEqual(['"B.C" in cs is empty or not a text', '"D" exists in en but not in cs']);
  });

  it('compares list items by position', () => {
    expect(
      compareTranslations({ lang: 'cs', tree: { L: ['a', 'b'] } }, { lang: 'en', tree: { L: ['a'] } }),
    ).toEqual(['"L.1" exists in cs but not in en']);
  });
});

describe('the project translation files', () => {
  const cs = mergedTranslations('cs');
  const en = mergedTranslations('en');

  it('define the same keys in cs and en, none of them empty', () => {
    expect(compareTranslations({ lang: 'cs', tree: cs }, { lang: 'en', tree: en })).toEqual([]);
  });

  it('hold no text the app never shows: each key is written in the code, or under a prefix it completes', () => {
    const code = Object.values(
      import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../test/**'], {
        query: '?raw',
        import: 'default',
        eager: true,
      }),
    ).join('\n');
    expect(code).toContain('export function RequestForm');
    // 'FORM.LOADING' as a string; `FORM.HINTS.${name}`: every key under FORM.HINTS.
    const written = new Set([...code.matchAll(/['"`]([A-Z][A-Z0-9_]*(?:\.\w+)+)['"`]/g)].map((m) => m[1]));
    const prefixes = [...code.matchAll(/`([A-Z][A-Z0-9_]*(?:\.\w+)*\.)\$\{/g)].map((m) => m[1] ?? '');
    expect(prefixes).toContain('FORM.HINTS.');
    const unused = flattenTranslations(cs)
      .map(([key]) => key)
      .filter((key) => !written.has(key) && !prefixes.some((p) => key.startsWith(p)));
    expect(unused).toEqual([]);
  });

  it('hold the shared keys of the spec', () => {
    const keys = new Set(flattenTranslations(cs).map(([key]) => key));
    const required = [
      'ALERTS.CHECK_VALIDITY_ERROR',
      'ALERTS.SUBMIT_FORM_ERROR',
      'ALERTS.FORM_INVALID',
      'ALERTS.DOCUMENT_INVALID',
      'ALERTS.TIME_NOT_COVERED',
      'ALERTS.SSO_INCOMPLETE',
      'ALERTS.FORM_REQUEST_DATE_INVALID',
      'ALERTS.FORM_REQUEST_DUPLICATES_INVALID',
      'FORM.LOADING',
      'TITLE.DEFAULT',
      'TITLE.DUPLICATE',
      'TITLE.CHECK',
      'VALIDATION.unknown',
      ...MESSAGE_KEYS.map((key) => `VALIDATION.${key}`),
    ];
    expect(required.filter((key) => !keys.has(key))).toEqual([]);
  });

  it('use the {{max}} placeholder in the maxlength message of both languages', () => {
    const get = (tree: typeof cs) => (tree.VALIDATION as Record<string, string>).maxlength;
    expect(get(cs)).toContain('{{max}}');
    expect(get(en)).toContain('{{max}}');
  });
});
