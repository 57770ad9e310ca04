import { type ComponentProps, useCallback } from 'react';
import { Link, type NavigateOptions, useLocation, useNavigate, useSearchParams } from 'react-router';

export type Lang = 'cs' | 'en';
export const LANGS: readonly Lang[] = ['cs', 'en'];
export const DEFAULT_LANG: Lang = 'cs';

/** The language named by a `lang` query value; anything but 'en' is Czech (the default). */
export function parseLang(value: string | null | undefined): Lang {
  return value === 'en' ? 'en' : 'cs';
}

/**
 * Adds (en) or removes (cs, the default) the `lang` query parameter of an in-app target
 * such as '/form?eid=eid#top'. Other query parameters and the hash are kept.
 */
export function withLang(to: string, lang: Lang): string {
  const hashAt = to.indexOf('#');
  const hash = hashAt >= 0 ? to.slice(hashAt) : '';
  const beforeHash = hashAt >= 0 ? to.slice(0, hashAt) : to;
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt >= 0 ? beforeHash.slice(0, queryAt) : beforeHash;
  const params = new URLSearchParams(queryAt >= 0 ? beforeHash.slice(queryAt + 1) : '');
  if (lang === DEFAULT_LANG) params.delete('lang');
  else params.set('lang', lang);
  const query = params.toString();
  return `${path}${query ? `?${query}` : ''}${hash}`;
}

/** The current language, from the `lang` query parameter of the current URL. */
export function useLang(): Lang {
  const [params] = useSearchParams();
  return parseLang(params.get('lang'));
}

type LinkProps = ComponentProps<typeof Link>;

/** A router link to an in-app path (a string) that keeps the current language. */
export function LangLink({ to, ...rest }: Omit<LinkProps, 'to'> & { to: string }) {
  const lang = useLang();
  return <Link to={withLang(to, lang)} {...rest} />;
}

/** Programmatic navigation that keeps the current language: `navigate('/form?eid=eid')`. */
export function useLangNavigate(): (to: string, options?: NavigateOptions) => void {
  const navigate = useNavigate();
  const lang = useLang();
  return useCallback(
    (to: string, options?: NavigateOptions) => navigate(withLang(to, lang), options),
    [navigate, lang],
  );
}

/** The current route (path, query and hash) in another language; used by the language switch. */
export function useCurrentPathIn(lang: Lang): string {
  const location = useLocation();
  return withLang(`${location.pathname}${location.search}${location.hash}`, lang);
}
