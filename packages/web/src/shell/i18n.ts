import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGS, type Lang } from './lang';

/** Where the build puts the merged translation files (see vite-plugin-i18n.ts). */
export const I18N_PATH = '/assets/i18n/';

/** Loads `/assets/i18n/{lang}.json` at run time: the texts are not bundled into the script. */
const fetchBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    fetch(`${I18N_PATH}${language}.json`, { headers: { Accept: 'application/json' } })
      .then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.json() as Promise<Record<string, unknown>>;
      })
      .then(
        (data) => callback(null, data),
        (error: unknown) => {
          console.error(`Loading ${I18N_PATH}${language}.json failed: ${String(error)}`);
          callback(error instanceof Error ? error : new Error(String(error)), false);
        },
      );
  },
};

/**
 * The few texts needed to explain a failed start when even the translation file could not
 * be loaded (the server is unreachable): without them the user would see raw keys.
 */
const EMERGENCY_TEXTS: Record<Lang, Record<string, unknown>> = {
  cs: {
    SHELL: {
      AUTHORITY: 'Úřad pro civilní letectví',
      LOADING: 'Načítání…',
      STARTUP_ERROR: {
        TITLE: 'Službu se nepodařilo spustit',
        DESCRIPTION:
          'Nepodařilo se spojit se serverem. Zkontrolujte připojení k internetu a zkuste to znovu.',
        HINT: 'Pokud potíže trvají, zkuste to prosím později.',
        RETRY: 'Zkusit znovu',
      },
    },
  },
  en: {
    SHELL: {
      AUTHORITY: 'Civil Aviation Authority of the Czech Republic',
      LOADING: 'Loading…',
      STARTUP_ERROR: {
        TITLE: 'The service could not start',
        DESCRIPTION: 'We could not reach the server. Check your internet connection and try again.',
        HINT: 'If the problem persists, please try again later.',
        RETRY: 'Try again',
      },
    },
  },
};

/** Creates and initialises the i18next instance for the app, loading `lang` first. */
export async function createI18n(lang: Lang): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance
    .use(fetchBackend)
    .use(initReactI18next)
    .init({
      lng: lang,
      // Both languages hold every key (a unit test checks it), so no fallback file is fetched.
      fallbackLng: false,
      supportedLngs: [...LANGS],
      load: 'currentOnly',
      ns: ['translation'],
      defaultNS: 'translation',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: false },
    })
    .catch(() => undefined);
  if (!instance.hasResourceBundle(lang, 'translation')) {
    instance.addResourceBundle(lang, 'translation', EMERGENCY_TEXTS[lang], true, false);
  }
  return instance;
}
