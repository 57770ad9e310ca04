import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Db } from '../../db/database.js';
import { hashId } from '../../nia/sessions.js';
import type { ServerContext } from '../../services.js';
import { SIGNIN_CALLBACK, SIGNIN_START, STAFF_COOKIE } from './paths.js';
import { consoleAuthRoutes } from './routes.js';

/**
 * Test helpers (not built: tsconfig.build.json leaves testing.ts out): a browser's cookie jar
 * for app.inject, the whole sign-in through the local staff provider, and a signed-in staff
 * member's cookie and CSRF token for the console's page tests.
 */

/** Registers consoleAuthRoutes on an app built without it (before app.ts registers it). */
export async function withConsoleAuth(
  app: FastifyInstance,
  ctx: Omit<ServerContext, 'services'>,
): Promise<void> {
  if (app.hasRoute({ method: 'GET', url: SIGNIN_START })) return;
  await app.register(consoleAuthRoutes, { ...ctx, services: app.services });
}

/** A browser's cookies for one host: names and values by path. */
export class Jar {
  private cookies = new Map<string, { value: string; path: string }>();
  store(res: LightMyRequestResponse): void {
    const raw = res.headers['set-cookie'];
    for (const line of raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]) {
      const [pair = '', ...attrs] = String(line).split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const path =
        attrs
          .map((x) => x.trim())
          .find((x) => /^path=/i.test(x))
          ?.slice(5) || '/';
      const gone = attrs.some(
        (x) => /^max-age=0$/i.test(x.trim()) || /^expires=thu, 01 jan 1970/i.test(x.trim()),
      );
      const key = `${name}\u0000${path}`;
      if (gone || value === '') this.cookies.delete(key);
      else this.cookies.set(key, { value, path });
    }
  }
  header(path: string): string {
    return [...this.cookies.entries()]
      .filter(([, c]) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([k, c]) => `${k.split('\u0000')[0]}=${c.value}`)
      .join('; ');
  }
  get(name: string): string | undefined {
    for (const [k, c] of this.cookies) if (k.startsWith(`${name}\u0000`)) return c.value;
    return undefined;
  }
  /** The names of the cookies held. */
  names(): string[] {
    return [...this.cookies.keys()].map((k) => k.split('\u0000')[0] as string);
  }
}

/** The path and query of a URL or a Location header. */
const pathOf = (url: string) => {
  const u = new URL(url, 'http://localhost:8080');
  return `${u.pathname}${u.search}`;
};

/** A browser's GET (or POST) through app.inject, with the jar's cookies, as the browser at `host`. */
export async function browse(
  app: FastifyInstance,
  jar: Jar,
  url: string,
  init: {
    method?: 'GET' | 'POST';
    form?: Record<string, string>;
    headers?: Record<string, string>;
    host?: string;
  } = {},
): Promise<LightMyRequestResponse> {
  const path = pathOf(url);
  // The host of an absolute URL; else the one given (the browser's address), else localhost:8080.
  const host = /^https?:\/\//.test(url) ? new URL(url).host : (init.host ?? 'localhost:8080');
  const res = await app.inject({
    method: init.method ?? 'GET',
    url: path,
    headers: {
      host,
      ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...init.headers,
      cookie: jar.header(path.split('?')[0] as string),
    },
    payload: init.form ? new URLSearchParams(init.form).toString() : undefined,
  });
  jar.store(res);
  return res;
}

export interface SignInSteps {
  /** The staff member to pick on /urad-test's page (test-reader, test-clerk, test-admin, test-norole). */
  subject: string;
  jar?: Jar;
  /** Press Cancel on the provider's page instead. */
  cancel?: boolean;
  /** Changes the callback URL before the browser follows it. */
  tamper?: (callback: URL) => void | Promise<void>;
  /** Headers the browser sends with the callback (e.g. Sec-Fetch-Site). */
  callbackHeaders?: Record<string, string>;
  /** The address the browser opened the console at (default localhost:8080). */
  host?: string;
}

/** zahajit -> /urad-test -> pick (or cancel) -> navrat: the callback's answer and the jar. */
export async function signInSteps(app: FastifyInstance, steps: SignInSteps) {
  const jar = steps.jar ?? new Jar();
  const { host } = steps;
  const start = await browse(app, jar, SIGNIN_START, { host });
  if (start.statusCode !== 303) throw new Error(`zahajit answered ${start.statusCode}`);
  const authorize = String(start.headers.location);
  let res = await browse(app, jar, authorize);
  while (res.statusCode === 302 || res.statusCode === 303)
    res = await browse(app, jar, String(res.headers.location));
  const uid = /\/urad-test\/interaction\/([^/"]+)\/login/.exec(res.body)?.[1];
  if (res.statusCode !== 200 || !uid) throw new Error(`no picker page (${res.statusCode})`);
  res = await browse(app, jar, `/urad-test/interaction/${uid}/${steps.cancel ? 'abort' : 'login'}`, {
    method: 'POST',
    form: { staff: steps.subject },
    host,
  });
  let location = String(res.headers.location ?? '');
  while (
    (res.statusCode === 302 || res.statusCode === 303) &&
    !pathOf(location).startsWith(SIGNIN_CALLBACK)
  ) {
    res = await browse(app, jar, location);
    location = String(res.headers.location ?? '');
  }
  if (!pathOf(location).startsWith(`${SIGNIN_CALLBACK}?`))
    throw new Error(`no callback (${res.statusCode} ${res.body.slice(0, 800)})`);
  const callback = new URL(location, `http://${host ?? 'localhost:8080'}`);
  await steps.tamper?.(callback);
  const answer = await browse(app, jar, callback.href, { headers: steps.callbackHeaders });
  return { jar, authorize, callback, answer };
}

/** A signed-in staff member: the `Cookie` header value and the session's CSRF token. */
export async function signedInStaff(
  app: FastifyInstance,
  db: Db,
  subject: string,
): Promise<{ jar: Jar; cookie: string; csrf: string }> {
  const { jar, answer } = await signInSteps(app, { subject });
  const value = jar.get(STAFF_COOKIE);
  if (answer.statusCode !== 303 || !value) throw new Error(`not signed in (${answer.headers.location})`);
  const row = await db.kysely
    .selectFrom('console_sessions')
    .select('csrf')
    .where('id', '=', hashId(value))
    .executeTakeFirstOrThrow();
  return { jar, cookie: `${STAFF_COOKIE}=${value}`, csrf: row.csrf };
}
