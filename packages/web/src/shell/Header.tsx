import { Link } from 'react-router';
import { type Lang, useCurrentPathIn, useLang, withLang } from './lang';
import { useCurrentHeaderTitle } from './title';
import { useT } from './translate';

/** Names of the languages in themselves: the switch offers the other language in its own words. */
const LANG_NAMES: Record<Lang, string> = { cs: 'Čeština', en: 'English' };

function LangSwitch() {
  const { t } = useT();
  const lang = useLang();
  const other: Lang = lang === 'cs' ? 'en' : 'cs';
  const target = useCurrentPathIn(other);
  return (
    <nav className="header__lang" aria-label={t('SHELL.LANG_NAV')}>
      <Link to={target} lang={other} hrefLang={other} className="header__lang-link">
        {LANG_NAMES[other]}
      </Link>
    </nav>
  );
}

function Emblem() {
  // A simple aircraft mark; decorative.
  return (
    <svg className="header__emblem" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <circle cx="16" cy="16" r="15" fill="none" stroke="currentColor" strokeWidth="2" />
      <path
        fill="currentColor"
        d="M16 5c.9 0 1.5 1.1 1.5 2.6v6.1l8.5 4.6v2.2l-8.5-2.4v5.1l2.6 1.9v1.7L16 25.7l-4.1 1.1v-1.7l2.6-1.9v-5.1L6 20.5v-2.2l8.5-4.6V7.6C14.5 6.1 15.1 5 16 5z"
      />
    </svg>
  );
}

export function Header() {
  const { t } = useT();
  const lang = useLang();
  const title = useCurrentHeaderTitle();
  return (
    <header className="header">
      <div className="container header__bar">
        <Link to={withLang('/', lang)} className="header__brand">
          <Emblem />
          <span className="header__authority">{t('SHELL.AUTHORITY')}</span>
          <span className="visually-hidden"> – {t('SHELL.HOME_LINK')}</span>
        </Link>
        <LangSwitch />
      </div>
      <div className="container header__title-row">
        <p className="header__title" data-testid="header-title">
          {title}
        </p>
      </div>
    </header>
  );
}
