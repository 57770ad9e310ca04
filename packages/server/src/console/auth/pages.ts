import { CONSOLE_PATH } from '../staff.js';

/**
 * The two small pages the sign-in routes answer themselves (Czech, no script, nothing to load):
 * the step back to the console after a sign-in at a provider on another site, and the refusal
 * of a sign-out whose CSRF check failed.
 */

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
} as const;

const html = (title: string, head: string, body: string) => `<!doctype html>
<html lang="cs">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">${head}
<title>${title} – konzole úřadu</title></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`;

/**
 * After a sign-in at a provider on another site the browser does not send the SameSite=Strict
 * session cookie on the redirects that follow (the chain began on the other site). This page
 * goes on to the console from our own origin (a refresh, and a link for whoever has refreshes
 * switched off), where the cookie is sent.
 */
export const onwardPage = (): string =>
  html(
    'Přihlášení proběhlo',
    `\n<meta http-equiv="refresh" content="0;url=${CONSOLE_PATH}">`,
    `<p><a href="${CONSOLE_PATH}">Pokračovat do konzole</a></p>`,
  );

export const refusedPage = (): string =>
  html(
    'Požadavek odmítnut',
    '',
    `<p>Formulář nepřišel ze stránky konzole, nebo mezitím skončila jeho platnost. Nic se nezměnilo.</p>
<p><a href="${CONSOLE_PATH}">Zpět do konzole</a></p>`,
  );
