/**
 * The paths of the web app's pages (spec section 2), one list for the browser's router and the
 * server: the server answers these with the app and status 200, and every other page path with
 * the same app and status 404 (the app shows its not-found page there). `/not-found` is the page
 * itself, so it answers 404 too.
 */
export const APP_PATHS = [
  '/',
  '/duplikat',
  '/duplicate',
  '/form',
  '/duplikat/form',
  '/duplicate/form',
  '/check',
  '/not-found',
] as const;

export type AppPath = (typeof APP_PATHS)[number];

/** The path of the not-found page, where unknown paths are sent. */
export const NOT_FOUND_PATH: AppPath = '/not-found';

const PAGES = new Set<string>(APP_PATHS.filter((p) => p !== NOT_FOUND_PATH));

/** Whether a path (no query string; one trailing slash allowed, as the router allows) is a page. */
export function isAppPage(path: string): boolean {
  const p = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return PAGES.has(p);
}
