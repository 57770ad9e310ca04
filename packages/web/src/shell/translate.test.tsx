import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createTestI18n, mergedTranslations } from '../test/i18n';
import { TranslateProvider, translateFor, useT } from './translate';

/** Every key of a translation tree, dotted ('FORM.HINTS.email'). */
function keysOf(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? keysOf(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('translateFor (issue 14: t without react-i18next per component)', () => {
  for (const lang of ['cs', 'en'] as const) {
    it(`gives every key of ${lang} the text i18next gives it, plain or with values`, () => {
      const i18n = createTestI18n(lang);
      const { t } = translateFor(i18n, lang);
      const keys = keysOf(mergedTranslations(lang));
      expect(keys.length).toBeGreaterThan(300);
      for (const key of keys) {
        expect(t(key), key).toBe(i18n.t(key));
        // Twice: the kept text is the same.
        expect(t(key), key).toBe(i18n.t(key));
        expect(t(key, { max: 7, field: 'Jméno' }), key).toBe(i18n.t(key, { max: 7, field: 'Jméno' }));
      }
    });
  }

  it('fills values, answers a missing key as i18next does, and tells which keys exist', () => {
    const i18n = createTestI18n('en');
    const { t, exists } = translateFor(i18n, 'en');
    expect(t('VALIDATION.maxlength', { max: 50 })).toContain('50');
    expect(t('NO.SUCH.KEY')).toBe('NO.SUCH.KEY');
    expect(exists('VALIDATION.maxlength')).toBe(true);
    expect(exists('NO.SUCH.KEY')).toBe(false);
    // One function per instance and language, so that it can be a stable dependency.
    expect(translateFor(i18n, 'en').t).toBe(t);
    expect(translateFor(i18n, 'cs').t).not.toBe(t);
    expect(translateFor(i18n, 'cs').t('FORM.OPTIONAL')).toBe(i18n.getFixedT('cs')('FORM.OPTIONAL'));
  });

  it('a text loaded later replaces the kept one (a retried load after the emergency texts)', () => {
    const i18n = createTestI18n('en');
    const { t } = translateFor(i18n, 'en');
    const before = t('SHELL.LOADING');
    i18n.addResourceBundle('en', 'translation', { SHELL: { LOADING: 'Loading, please wait' } }, true, true);
    expect(t('SHELL.LOADING')).toBe('Loading, please wait');
    expect(before).not.toBe('Loading, please wait');
  });
});

function Optional() {
  const { t } = useT();
  return <p data-testid="text">{t('FORM.OPTIONAL')}</p>;
}

describe('TranslateProvider and useT', () => {
  it('follows a language change of i18next: every useT below renders in the new language', async () => {
    const i18n = createTestI18n('cs');
    render(
      <I18nextProvider i18n={i18n}>
        <TranslateProvider>
          <Optional />
        </TranslateProvider>
      </I18nextProvider>,
    );
    const cs = i18n.getFixedT('cs')('FORM.OPTIONAL');
    const en = i18n.getFixedT('en')('FORM.OPTIONAL');
    expect(cs).not.toBe(en);
    expect(screen.getByTestId('text').textContent).toBe(cs);
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByTestId('text').textContent).toBe(en);
  });

  it('works without the provider (a component test): the language of the I18nextProvider', () => {
    const i18n = createTestI18n('en');
    render(
      <I18nextProvider i18n={i18n}>
        <Optional />
      </I18nextProvider>,
    );
    expect(screen.getByTestId('text').textContent).toBe(i18n.getFixedT('en')('FORM.OPTIONAL'));
  });
});
