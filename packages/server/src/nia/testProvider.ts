import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type Provider from 'oidc-provider';
import type { ServiceContext } from '../context.js';
import type { ApiErrorBody } from '../errors.js';
import { API_SECURITY_HEADERS } from '../http/apiHeaders.js';
import { NIA_CLAIMS } from './identity.js';
import { callbackUrl, LOA, TEST_PROVIDER_PATH, testIssuer } from './settings.js';
import { TEST_IDENTITIES, testIdentity } from './testIdentities.js';
import { sharedProviderKeys, testProviderAdapter } from './testProviderStore.js';

/**
 * The local NIA-like OpenID provider (oidc-provider), for development, demos and tests
 * (docs/nia.md). Mounted under /nia-test in the same server only when ROS_NIA_TEST_PROVIDER is
 * on. It speaks like NIA: the eIDAS claim names, acr http://eidas.europa.eu/LoA/substantial,
 * and a page where a test identity is picked instead of a real sign-in. Its state (sessions,
 * codes, tokens) and keys live in the database (testProviderStore.ts), so several instances act as
 * one provider; never use it in production.
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestProvider {
  provider: Provider;
  /** The provider's node handler for a request whose URL still starts with /nia-test. */
  handle: Handler;
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c] ?? c);

/** A plain page of a local test provider (also the console's, console/auth/testProvider.ts). */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="cs">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#111}
fieldset{border:1px solid #767676;padding:1rem}legend{font-weight:700}
label{display:block;padding:.35rem 0}button{font:inherit;padding:.5rem 1rem;margin:1rem .5rem 0 0}
.note{background:#fff4ce;border-left:4px solid #8a6d00;padding:.5rem 1rem}
:focus-visible{outline:3px solid #0b5cad;outline-offset:2px}
</style></head>
<body><main>${body}</main></body></html>`;
}

function pickerPage(uid: string): string {
  const options = TEST_IDENTITIES.map(
    (i, n) =>
      `<label><input type="radio" name="identity" value="${esc(i.id)}"${n === 0 ? ' checked' : ''}> ${esc(i.label.cs)} / <span lang="en">${esc(i.label.en)}</span></label>`,
  ).join('\n');
  return page(
    'Testovací NIA – výběr identity / Test NIA – pick an identity',
    `<h1>Testovací přihlášení NIA <span lang="en">/ Test NIA sign-in</span></h1>
<p class="note">Toto není skutečná NIA: vývojový a testovací poskytovatel identity portálu ROS. <span lang="en">This is not the real NIA: the ROS portal's development and test identity provider.</span></p>
<form method="post" action="${TEST_PROVIDER_PATH}/interaction/${esc(uid)}/login">
<fieldset><legend>Testovací identita <span lang="en">/ Test identity</span></legend>
${options}
</fieldset>
<button type="submit" name="action" value="login">Přihlásit <span lang="en">/ Sign in</span></button>
<button type="submit" name="action" value="abort" formaction="${TEST_PROVIDER_PATH}/interaction/${esc(uid)}/abort">Zrušit <span lang="en">/ Cancel</span></button>
</form>`,
  );
}

const errorPage = (message: string) =>
  page(
    'Testovací NIA – chyba / Test NIA – error',
    `<h1>Chyba <span lang="en">/ Error</span></h1><p>${esc(message)}</p>`,
  );

export async function createTestProvider(ctx: ServiceContext): Promise<TestProvider> {
  const { default: ProviderClass } = await import('oidc-provider');
  const keys = await sharedProviderKeys(ctx.db);
  const issuer = testIssuer(ctx.config);
  const provider = new ProviderClass(issuer, {
    clients: [
      {
        client_id: ctx.config.niaClientId,
        client_secret: ctx.config.niaClientSecret,
        redirect_uris: [callbackUrl(ctx.config)],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    adapter: testProviderAdapter(ctx.db),
    jwks: { keys: [keys.jwk] },
    cookies: { keys: keys.cookieKeys },
    scopes: ['openid', 'profile', 'email'],
    claims: {
      openid: ['sub'],
      profile: NIA_CLAIMS.filter((c) => c !== 'eMail'),
      email: ['eMail'],
    },
    acrValues: [LOA.low, LOA.substantial, LOA.high],
    pkce: { required: () => true },
    // Seconds: a sign-in is picked within minutes; tokens are used once, straight away.
    ttl: {
      Interaction: 900,
      Session: 900,
      Grant: 900,
      AuthorizationCode: 60,
      AccessToken: 300,
      IdToken: 300,
    },
    // No sign-out at the provider: every sign-in here is a fresh one (prompt=login), and the
    // portal then goes straight home instead of to oidc-provider's sign-out question.
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: false } },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) =>
        `${TEST_PROVIDER_PATH}/interaction/${interaction.uid}`,
    },
    async findAccount(_ctx: unknown, sub: string) {
      const identity = testIdentity(sub);
      if (!identity) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...identity.claims }) };
    },
    // Our own client: consent is implied, as with NIA once the service is registered.
    async loadExistingGrant(c: {
      oidc: { client: { clientId: string }; session: { accountId: string }; provider: Provider };
    }) {
      const grant = new c.oidc.provider.Grant({
        clientId: c.oidc.client.clientId,
        accountId: c.oidc.session.accountId,
      });
      grant.addOIDCScope('openid profile email');
      grant.addOIDCClaims([...NIA_CLAIMS]);
      await grant.save();
      return grant;
    },
    async renderError(c: { type: string; body: string }, out: { error?: string }) {
      c.type = 'html';
      c.body = errorPage(String(out.error ?? 'error'));
    },
  });
  // Endpoints in discovery are built from X-Forwarded-* that the mount below always sets from
  // ROS_PUBLIC_URL, so they match the issuer behind any proxy.
  provider.proxy = true;
  const callback = provider.callback();
  const pub = new URL(ctx.config.publicUrl);
  const handle: Handler = (req, res) => {
    const url = req.url ?? '/';
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = url;
    req.url = url.slice(TEST_PROVIDER_PATH.length) || '/';
    req.headers['x-forwarded-proto'] = pub.protocol.slice(0, -1);
    req.headers['x-forwarded-host'] = pub.host;
    callback(req, res);
  };
  return { provider, handle };
}

export async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 16 * 1024) break;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
};

/**
 * Mounts the provider under /nia-test when ROS_NIA_TEST_PROVIDER is on; when it is off the
 * whole path answers 404 (not the web app's index page). Register at the root, not under /api/ros.
 */
export function niaTestProviderRoutes(
  /** The provider for this request (one per address the browser used in development: nia/publicUrl.ts). */
  getProvider: (req: IncomingMessage) => Promise<TestProvider>,
): FastifyPluginAsync<ServiceContext> {
  return async (app: FastifyInstance, ctx: ServiceContext) => {
    // With the security headers every other answer has (issue 33): this plugin sits outside the
    // API's scope, whose hook adds them.
    const notFound = async (
      _req: unknown,
      reply: {
        status(n: number): { headers(h: Record<string, string>): { send(b: ApiErrorBody): unknown } };
      },
    ) =>
      reply
        .status(404)
        .headers(API_SECURITY_HEADERS)
        .send({ error: { code: 'NOT_FOUND', message: 'Not found' } });
    if (!ctx.config.niaTestProvider) {
      app.all(TEST_PROVIDER_PATH, notFound);
      app.all(`${TEST_PROVIDER_PATH}/*`, notFound);
      return;
    }
    // The provider reads its own request bodies: Fastify leaves them unread here.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_req, _payload, done) => done(null));

    app.get<{ Params: { uid: string } }>(`${TEST_PROVIDER_PATH}/interaction/:uid`, async (req, reply) => {
      const { provider } = await getProvider(req.raw);
      try {
        const details = await provider.interactionDetails(req.raw, reply.raw);
        if (details.uid !== req.params.uid) throw new Error('interaction mismatch');
      } catch {
        return reply.status(400).headers(PAGE_HEADERS).send(errorPage('Sign-in expired: start again.'));
      }
      return reply.headers(PAGE_HEADERS).send(pickerPage(req.params.uid));
    });

    const finish =
      (abort: boolean) =>
      async (
        req: { raw: IncomingMessage; params: { uid: string } },
        reply: {
          raw: ServerResponse;
          hijack(): void;
          status(n: number): { headers(h: Record<string, string>): { send(b: string): unknown } };
        },
      ) => {
        const { provider } = await getProvider(req.raw);
        const form = await formBody(req.raw);
        let accountId: string | undefined;
        try {
          const details = await provider.interactionDetails(req.raw, reply.raw);
          if (details.uid !== req.params.uid) throw new Error('interaction mismatch');
          if (!abort) {
            accountId = testIdentity(form.get('identity') ?? '')?.id;
            if (!accountId) return reply.status(400).headers(PAGE_HEADERS).send(pickerPage(req.params.uid));
          }
        } catch {
          return reply.status(400).headers(PAGE_HEADERS).send(errorPage('Sign-in expired: start again.'));
        }
        reply.hijack();
        const result = abort
          ? { error: 'access_denied', error_description: 'End-User aborted interaction' }
          : { login: { accountId, acr: LOA.substantial, amr: ['pwd'] } };
        await provider.interactionFinished(req.raw, reply.raw, result, { mergeWithLastSubmission: false });
      };
    app.post<{ Params: { uid: string } }>(`${TEST_PROVIDER_PATH}/interaction/:uid/login`, finish(false));
    app.post<{ Params: { uid: string } }>(`${TEST_PROVIDER_PATH}/interaction/:uid/abort`, finish(true));

    const pass = async (req: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): void }) => {
      const { handle } = await getProvider(req.raw);
      reply.hijack();
      handle(req.raw, reply.raw);
    };
    app.all(TEST_PROVIDER_PATH, pass);
    app.all(`${TEST_PROVIDER_PATH}/*`, pass);
  };
}
