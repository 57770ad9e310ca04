import type { i18n as I18n } from 'i18next';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { getI18n, I18nContext } from 'react-i18next';

/** Translates a key of the translation files; `options` as i18next's own `t` takes them. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The translation functions of one language: `t`, and whether a key has a text. */
export interface Translation {
  t: Translate;
  exists: (key: string) => boolean;
}

/** Texts that need i18next's own work: interpolation (`{{name}}`) or nesting (`$t(KEY)`). */
const NEEDS_I18NEXT = /\{\{|\$t\(/;

const cache = new WeakMap<I18n, Map<string, Translation>>();

/**
 * `t` of one language of one i18next instance, made once per pair. A key without options whose
 * text is a plain string is looked up once in the loaded texts and kept; anything else (options,
 * interpolation, nesting, a key not loaded) goes to i18next's own `t`, as before.
 *
 * Why (issue 14): step 2 of the form translates several hundred labels, hints and tooltips as it
 * renders, and react-i18next's `useTranslation` costs every component that calls it a copy of
 * the i18next instance's properties and a subscription of its own; with i18next's `translate`
 * that was ~160 ms of step 2's main thread at 4x CPU (bench/profile.mjs).
 */
export function translateFor(i18n: I18n, lang: string): Translation {
  let byLang = cache.get(i18n);
  if (!byLang) {
    byLang = new Map();
    cache.set(i18n, byLang);
  }
  const known = byLang.get(lang);
  if (known) return known;
  const fixed = i18n.getFixedT(lang);
  const plain = new Map<string, string>();
  // Texts loaded later (a retried load after the emergency texts, shell/i18n.ts) replace the kept ones.
  i18n.store.on('added', (added: string) => {
    if (added === lang) plain.clear();
  });
  const t: Translate = (key, options) => {
    if (options !== undefined) return fixed(key, options) as string;
    const kept = plain.get(key);
    if (kept !== undefined) return kept;
    const found: unknown = i18n.getResource(lang, 'translation', key);
    if (typeof found !== 'string' || NEEDS_I18NEXT.test(found)) return fixed(key) as string;
    plain.set(key, found);
    return found;
  };
  const translation: Translation = { t, exists: (key) => i18n.exists(key, { lng: lang }) };
  byLang.set(lang, translation);
  return translation;
}

const TranslateContext = createContext<Translation | null>(null);

/**
 * Gives every `useT()` below it the `t` of i18next's current language: one subscription to
 * i18next's language changes for the whole app (shell/Layout.tsx), instead of one per component.
 */
export function TranslateProvider({ children }: { children: ReactNode }) {
  const i18n = useI18n();
  const [lang, setLang] = useState(i18n.language);
  useEffect(() => {
    const follow = (next: string) => setLang(next);
    i18n.on('languageChanged', follow);
    // A change between the first render and this effect.
    setLang(i18n.language);
    return () => i18n.off('languageChanged', follow);
  }, [i18n]);
  const translation = useMemo(() => translateFor(i18n, lang), [i18n, lang]);
  return <TranslateContext.Provider value={translation}>{children}</TranslateContext.Provider>;
}

/**
 * The app's `t`: `const { t } = useT()`, in place of react-i18next's `useTranslation()` wherever
 * a component only translates (`exists` for a key that may have no text). Outside TranslateProvider (a component's own test) it uses the
 * i18next instance of the I18nextProvider and its language at that render.
 */
export function useT(): Translation {
  const provided = useContext(TranslateContext);
  const i18n = useI18n();
  return provided ?? translateFor(i18n, i18n.language);
}

/** The i18next instance of the I18nextProvider above, else the one react-i18next was set up with. */
function useI18n(): I18n {
  return useContext(I18nContext)?.i18n ?? getI18n();
}
