import type { Lang } from '../shell/lang';

/** The `from` value of the sign-in redirect: where NIA sends the user back to. */
export function ssoFrom(lang: Lang, duplicate: boolean): 'form' | 'form-en' | 'duplicate' | 'duplicate-en' {
  const base = duplicate ? 'duplicate' : 'form';
  return lang === 'en' ? `${base}-en` : base;
}

/** Full URL of the sign-in redirect (a browser navigation, not an API call). */
export function ssoRedirectUrl(lang: Lang, duplicate: boolean): string {
  return `/api/ros/sso-redirect?from=${ssoFrom(lang, duplicate)}`;
}

/** In-app path of the form for the mode (language is added by LangLink / useLangNavigate). */
export function formPath(duplicate: boolean, lang: Lang, eid = false): string {
  const path = duplicate ? (lang === 'en' ? '/duplicate/form' : '/duplikat/form') : '/form';
  return `${path}${eid ? '?eid=eid' : ''}`;
}
