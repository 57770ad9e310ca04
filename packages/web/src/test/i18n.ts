import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { mergeTranslationFiles, type TranslationTree } from '../i18n/merge';
import type { Lang } from '../shell/lang';

const files = import.meta.glob<{ default: unknown }>('../i18n/*/*.json', { eager: true });

/** The merged translations of a language, exactly as the build merges them. */
export function mergedTranslations(lang: Lang): TranslationTree {
  return mergeTranslationFiles(
    Object.entries(files)
      .filter(([path]) => path.startsWith(`../i18n/${lang}/`))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([path, module]) => ({ file: path.replace('../i18n/', ''), data: module.default })),
  );
}

/** An i18next instance with both languages already loaded (no fetch), for component tests. */
export function createTestI18n(lang: Lang = 'cs'): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: false,
    resources: {
      cs: { translation: mergedTranslations('cs') },
      en: { translation: mergedTranslations('en') },
    },
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    initAsync: false,
  });
  return instance;
}
