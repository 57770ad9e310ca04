import { useState } from 'react';
import { Button } from '../components/Button';
import { useLang } from './lang';
import { EXTERNAL_LINKS } from './links';
import { useT } from './translate';

/** The local-storage key of the cookie consent (value 'true' once given). */
export const COOKIE_CONSENT_KEY = 'ros-cookie-consent';

function readConsent(): boolean {
  try {
    return window.localStorage.getItem(COOKIE_CONSENT_KEY) === 'true';
  } catch {
    // Storage blocked: show the bar, it just cannot remember the answer.
    return false;
  }
}

/**
 * The cookie consent bar. It sits in the page flow above the header (not a modal, not fixed),
 * so it never covers the focused element and the page does not jump when it goes away
 * on a later visit: its presence is known at the first render.
 */
export function CookieBar() {
  const { t } = useT();
  const lang = useLang();
  const [consented, setConsented] = useState(readConsent);
  if (consented) return null;

  const accept = () => {
    try {
      window.localStorage.setItem(COOKIE_CONSENT_KEY, 'true');
    } catch {
      // Storage blocked: hide the bar for this page view anyway.
    }
    setConsented(true);
    // Keep keyboard users on the page: focus moves to the skip link's target area start.
    document.getElementById('main-content')?.focus();
  };

  return (
    <section className="cookiebar" aria-labelledby="cookiebar-title">
      <div className="container cookiebar__inner">
        <div className="cookiebar__text">
          {/* Not a heading: the page's headings start with its H1 (the bar is a named region). */}
          <p id="cookiebar-title" className="cookiebar__title">
            {t('COOKIES.TITLE')}
          </p>
          <p>
            {t('COOKIES.TEXT')}{' '}
            <a href={EXTERNAL_LINKS[lang].privacy} rel="noopener">
              {t('COOKIES.MORE')}
            </a>
          </p>
        </div>
        <div className="cookiebar__actions">
          <Button variant="primary" onClick={accept}>
            {t('COOKIES.ACCEPT_ALL')}
          </Button>
          <Button variant="outlined" onClick={accept}>
            {t('COOKIES.ACCEPT_NECESSARY')}
          </Button>
        </div>
      </div>
    </section>
  );
}
