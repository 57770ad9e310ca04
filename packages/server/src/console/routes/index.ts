import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { ServerContext } from '../../services.js';
import { consoleAuthRoutes, loadStaff } from '../auth/index.js';
import { MessagePage, SignInPage } from '../pages/SimplePages.js';
import { CONSOLE_PATH } from '../staff.js';
import { actionRoutes } from './actions.js';
import { adminRoutes } from './admin.js';
import { auditRoutes } from './audit.js';
import { type ConsoleDeps, frameOf, sendMessage, sendPage } from './common.js';
import { queueRoutes } from './queue.js';
import { requestRoutes } from './request.js';

/** The largest form the console accepts (a note or a reason of 500 characters, with room to spare). */
export const CONSOLE_FORM_LIMIT = 8 * 1024;

/**
 * The console stylesheet's address from the web build's manifest (the entry
 * `src/console/console.css`, packages/web/vite.config.ts); null without a web build.
 */
export function consoleStylesheet(webDir: string | undefined): string | null {
  if (!webDir) return null;
  const manifest = join(webDir, '.vite', 'manifest.json');
  if (!existsSync(manifest)) return null;
  const entries = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, { file?: string }>;
  const file = entries['src/console/console.css']?.file;
  return file ? `/${file}` : null;
}

/**
 * The authority's console under /urad (issue 38, docs/console.md): pages made on the server,
 * forms posted back (urlencoded, bounded), one stylesheet, no script. Off (404 like any unknown
 * path) unless the console is switched on (ROS_CONSOLE).
 */
export const consoleRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  await app.register(consoleAuthRoutes, ctx);
  if (!ctx.config.consoleEnabled) return;
  const deps: ConsoleDeps = { db: ctx.db, stylesheet: consoleStylesheet(ctx.config.webDir) };

  await app.register(async (scope) => {
    // The console's forms: urlencoded only, one value per name (the last), bounded.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: CONSOLE_FORM_LIMIT },
      (_req, body, done) => {
        const fields: Record<string, string> = Object.create(null);
        for (const [k, v] of new URLSearchParams(body as string)) if (k.length <= 40) fields[k] = v;
        done(null, fields);
      },
    );

    // A form the console cannot read (over the limit, not urlencoded, malformed): a page of the
    // console with the status, not the API's JSON error (a browser would show the JSON).
    // A signed-in member keeps the console's header (name, sign-out, navigation) on it.
    scope.setErrorHandler(async (err: { statusCode?: number }, req, reply) => {
      const status = err.statusCode;
      if (status === 400 || status === 413 || status === 415) {
        const staff = await loadStaff(ctx.db, req);
        return sendPage(reply, status, MessagePage({ frame: frameOf(deps, staff), kind: 'badRequest' }));
      }
      throw err;
    });

    scope.get(`${CONSOLE_PATH}/prihlaseni`, async (req, reply) => {
      if (await loadStaff(ctx.db, req)) return reply.redirect(CONSOLE_PATH, 303);
      const q = (req.query ?? {}) as Record<string, unknown>;
      const error = typeof q.chyba === 'string' ? q.chyba.slice(0, 20) : null;
      return sendPage(
        reply,
        200,
        SignInPage({ frame: frameOf(deps, null), error, signedOut: q.odhlaseno === '1' }),
      );
    });
    // The console's address with a slash (a bookmark, nginx's `location ^~ /urad`): the queue, query kept.
    scope.get(`${CONSOLE_PATH}/`, async (req, reply) => {
      const query = req.url.indexOf('?');
      return reply.redirect(`${CONSOLE_PATH}${query < 0 ? '' : req.url.slice(query)}`, 301);
    });
    queueRoutes(scope, deps);
    requestRoutes(scope, deps, ctx);
    actionRoutes(scope, deps, ctx);
    auditRoutes(scope, deps);
    adminRoutes(scope, deps, ctx);
    // Anything else under /urad: the console's own not-found page (with the header when signed in).
    scope.all(`${CONSOLE_PATH}/*`, async (req, reply) =>
      sendMessage(reply, deps, await loadStaff(ctx.db, req), 'notFound'),
    );
  });
};
