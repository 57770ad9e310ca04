import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { ServiceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { testProviderAdapter } from '../../nia/testProviderStore.js';
import { CONSOLE_TEST_PROVIDER_PATH, consoleCallbackUrl, consoleTestIssuer } from './paths.js';
import { errorPage } from './testProviderPages.js';
import { testStaff, testStaffClaims } from './testStaff.js';

/**
 * The local staff provider (oidc-provider) under /urad-test, for development, demos and tests
 * (docs/console-signin.md): what the authority's own identity provider is in production. It
 * shows a page to pick a test staff member (testProviderRoutes.ts) and releases their name and
 * the role claim under ROS_CONSOLE_ROLE_CLAIM's name. Its state (interactions, sessions, codes,
 * grants, tokens) lives in the database beside the NIA test provider's (nia_test_provider_state,
 * random ids; nia/testProviderStore.ts), its keys in shared_secrets, so several instances act
 * as one provider. Never in production (unless switched on, with a SECURITY WARNING).
 */

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface ConsoleTestProvider {
  provider: Provider;
  /** The provider's node handler for a request whose URL still starts with /urad-test. */
  handle: Handler;
}

interface Keys {
  jwk: Record<string, unknown>;
  cookieKeys: string[];
}

/** The provider's signing and cookie keys, the same on every instance: the first to ask makes them. */
async function consoleProviderKeys(db: Db): Promise<Keys> {
  const name = 'console-test-provider-keys';
  const read = () =>
    db.kysely.selectFrom('shared_secrets').select('value').where('name', '=', name).executeTakeFirst();
  const existing = await read();
  if (existing) return JSON.parse(existing.value) as Keys;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const made: Keys = {
    jwk: { ...privateKey.export({ format: 'jwk' }), kid: 'urad-test', use: 'sig', alg: 'RS256' },
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
  await db.kysely
    .insertInto('shared_secrets')
    .values({ name, value: JSON.stringify(made), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await read();
  if (!stored) throw new Error('the console test provider keys were not stored');
  return JSON.parse(stored.value) as Keys;
}

/** The provider of one public address (`publicUrl`: the configured one, or a loopback one in development). */
export async function createConsoleTestProvider(
  ctx: ServiceContext,
  publicUrl: string,
): Promise<ConsoleTestProvider> {
  const { default: ProviderClass } = await import('oidc-provider');
  const keys = await consoleProviderKeys(ctx.db);
  const { config } = ctx;
  const roleClaim = config.consoleRoleClaim;
  const released = ['sub', 'name', 'given_name', 'family_name', roleClaim];
  const provider = new ProviderClass(consoleTestIssuer(publicUrl), {
    clients: [
      {
        client_id: config.consoleClientId,
        client_secret: config.consoleClientSecret,
        redirect_uris: [consoleCallbackUrl(publicUrl)],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    adapter: testProviderAdapter(ctx.db),
    jwks: { keys: [keys.jwk] },
    // Names of its own: the NIA test provider's cookies on the same host are never read here.
    cookies: {
      keys: keys.cookieKeys,
      names: {
        session: '_urad_session',
        interaction: '_urad_interaction',
        resume: '_urad_interaction_resume',
      },
    },
    scopes: ['openid', 'profile'],
    claims: { openid: ['sub'], profile: released.filter((c) => c !== 'sub') },
    // The claims in the ID token itself, as many staff providers send roles.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: {
      Interaction: 900,
      Session: 900,
      Grant: 900,
      AuthorizationCode: 60,
      AccessToken: 300,
      IdToken: 300,
    },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: false } },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) =>
        `${CONSOLE_TEST_PROVIDER_PATH}/interaction/${interaction.uid}`,
    },
    async findAccount(_ctx: unknown, sub: string) {
      const staff = testStaff(sub);
      if (!staff) return undefined;
      return { accountId: sub, claims: async () => testStaffClaims(staff, roleClaim) };
    },
    // The console is the provider's own client: consent is implied, as with a registered client.
    async loadExistingGrant(c: {
      oidc: { client: { clientId: string }; session: { accountId: string }; provider: Provider };
    }) {
      const grant = new c.oidc.provider.Grant({
        clientId: c.oidc.client.clientId,
        accountId: c.oidc.session.accountId,
      });
      grant.addOIDCScope('openid profile');
      grant.addOIDCClaims(released);
      await grant.save();
      return grant;
    },
    async renderError(c: { type: string; body: string }, out: { error?: string }) {
      c.type = 'html';
      c.body = errorPage(String(out.error ?? 'error'));
    },
  });
  // Discovery's endpoints are built from the X-Forwarded-* the mount below sets from the public address.
  provider.proxy = true;
  const callback = provider.callback();
  const pub = new URL(publicUrl);
  const handle: Handler = (req, res) => {
    const url = req.url ?? '/';
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = url;
    req.url = url.slice(CONSOLE_TEST_PROVIDER_PATH.length) || '/';
    req.headers['x-forwarded-proto'] = pub.protocol.slice(0, -1);
    req.headers['x-forwarded-host'] = pub.host;
    // No sign-in is kept between two: every one picks again (prompt=login asks for it anyway),
    // and picking another staff member does not meet the previous one's provider session
    // (oidc-provider would first ask to sign that one out).
    const cookie = req.headers.cookie;
    if (cookie)
      req.headers.cookie = cookie
        .split(';')
        .filter((c) => !/^\s*_urad_session(\.sig)?=/.test(c))
        .join(';');
    callback(req, res);
  };
  return { provider, handle };
}
