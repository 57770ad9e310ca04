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
  '/stav-zadosti',
  '/request-status',
  '/not-found',
] as const;

export type AppPath = (typeof APP_PATHS)[number];

/** The path of the not-found page, where unknown paths are sent. */
export const NOT_FOUND_PATH: AppPath = '/not-found';

const PAGES = new Set<string>(APP_PATHS.filter((p) => p !== NOT_FOUND_PATH));
const BY_LOWER_CASE = new Map<string, AppPath>(APP_PATHS.map((p) => [p, p]));

/** Whether a path (no query string) is a page, exactly as APP_PATHS writes it. */
export function isAppPage(path: string): boolean {
  return PAGES.has(path);
}

/**
 * The canonical path of a page path written another way (issue 22): in other letter case
 * (`/FORM`, `/Check`, `/Duplicate/Form`) or with one trailing slash (`/form/`); null when it names
 * no page (also for the canonical path itself, which needs no redirect). The server redirects
 * such a path there (301, query kept, routes/web.ts) and the browser's router replaces it (App.tsx),
 * so a page is only ever shown at its own path and its status is that path's.
 */
export function canonicalAppPath(path: string): AppPath | null {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const canonical = BY_LOWER_CASE.get(trimmed.toLowerCase());
  return canonical !== undefined && canonical !== path ? canonical : null;
}
