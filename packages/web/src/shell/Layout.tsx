import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { PageContainer } from '../components/PageContainer';
import { AlertList, useAlerts } from './alerts';
import { CookieBar } from './CookieBar';
import { Footer } from './Footer';
import { Header } from './Header';
import { useLang } from './lang';
import { MetadataGate } from './metadata';
import { TranslateProvider } from './translate';

/** Keeps i18next and <html lang> in step with the `lang` query parameter. */
function LanguageSync() {
  const lang = useLang();
  const { i18n } = useTranslation();
  useEffect(() => {
    document.documentElement.lang = lang;
    if (i18n.language !== lang) void i18n.changeLanguage(lang);
  }, [lang, i18n]);
  return null;
}

/**
 * On a new route: alerts belong to the screen that showed them, so the list starts empty,
 * and the new screen starts at the top (not at the old scroll position).
 */
function RouteChange() {
  const { pathname } = useLocation();
  const { clear } = useAlerts();
  const first = useRef(true);
  useEffect(() => {
    void pathname;
    clear();
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
  }, [pathname, clear]);
  return null;
}

export function Layout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="page">
      <LanguageSync />
      <RouteChange />
      <a href="#main-content" className="skip-link">
        {t('SHELL.SKIP_LINK')}
      </a>
      <TranslateProvider>
        <CookieBar />
        <Header />
        <main id="main-content" tabIndex={-1} className="main">
          <PageContainer>
            <AlertList />
            <MetadataGate>{children}</MetadataGate>
          </PageContainer>
        </main>
        <Footer />
      </TranslateProvider>
    </div>
  );
}
