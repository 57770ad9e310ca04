import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

/** A console page as the HTML document the server sends (React on the server, no script in the page). */
export function renderPage(page: ReactElement): string {
  return `<!doctype html>${renderToStaticMarkup(page)}`;
}
