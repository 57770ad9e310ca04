import inject from 'light-my-request';
import type { ServiceContext } from '../../context.js';
import type { Fetch } from '../../nia/client.js';
import { loopbackOrigin } from '../../nia/publicUrl.js';
import { ConsoleClient } from './client.js';
import { consoleCallbackUrl, consoleTestIssuer } from './paths.js';
import { type ConsoleTestProvider, createConsoleTestProvider } from './testProvider.js';

/**
 * The console's sign-in for one public address: the OpenID client and, when switched on, the
 * local staff provider, made on first use (oidc-provider is not even loaded otherwise).
 */
export interface ConsoleSignIn {
  /** The public address this sign-in uses (the redirect URI, the cookies, the Origin check). */
  publicUrl: string;
  client: ConsoleClient;
  testProvider(): Promise<ConsoleTestProvider>;
}

/**
 * The console's sign-in service of one app (services.ts), one per public address: in
 * development with ROS_PUBLIC_URL unset and the local provider, the loopback address the browser
 * used (as NIA's, nia/publicUrl.ts), else the configured one. Made on first use, kept for the
 * app's life; the address is read then (tests set it once the server listens).
 */
export interface ConsoleAuthService {
  forHost(host: string | undefined): ConsoleSignIn;
}

function headerObject(h: unknown): Record<string, string> {
  if (!h) return {};
  if (h instanceof Headers) return Object.fromEntries(h.entries());
  return { ...(h as Record<string, string>) };
}

function payloadOf(body: unknown): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return Buffer.from(body);
  throw new Error('unsupported request body for the local staff provider');
}

/** The client's calls to the in-process provider, without a network hop (as nia/index.ts does). */
function localFetchTo(provider: () => Promise<ConsoleTestProvider>): Fetch {
  return async (url, options) => {
    const { handle } = await provider();
    const u = new URL(url);
    const res = await inject(handle, {
      method: options.method as 'GET' | 'POST',
      url: `${u.pathname}${u.search}`,
      headers: { ...headerObject(options.headers), host: u.host },
      payload: payloadOf(options.body),
    });
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (Array.isArray(v)) for (const x of v) headers.append(k, String(x));
      else if (v !== undefined) headers.set(k, String(v));
    }
    const empty = res.statusCode === 204 || res.statusCode === 304 || res.rawPayload.length === 0;
    return new Response(empty ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers });
  };
}

function createSignIn(ctx: ServiceContext, publicUrl: string): ConsoleSignIn {
  const { config } = ctx;
  let provider: Promise<ConsoleTestProvider> | undefined;
  const testProvider = (): Promise<ConsoleTestProvider> => {
    if (!config.consoleTestProvider) return Promise.reject(new Error('the console test provider is off'));
    provider ??= createConsoleTestProvider(ctx, publicUrl);
    return provider;
  };
  const local = config.consoleTestProvider && !config.consoleIssuer;
  const client = new ConsoleClient(
    {
      issuer: config.consoleIssuer || consoleTestIssuer(publicUrl),
      clientId: config.consoleClientId,
      clientSecret: config.consoleClientSecret,
      scope: config.consoleScope,
      redirectUri: consoleCallbackUrl(publicUrl),
      roleClaim: config.consoleRoleClaim,
      subjects: config.consoleSubjects,
    },
    local ? localFetchTo(testProvider) : undefined,
  );
  return { publicUrl, client, testProvider };
}

export function createConsoleAuthService(ctx: ServiceContext): ConsoleAuthService {
  let configured: ConsoleSignIn | undefined;
  const byOrigin = new Map<string, ConsoleSignIn>();
  return {
    forHost(host) {
      const { config } = ctx;
      // A real provider knows one registered redirect address: never vary it.
      const follows = config.publicUrlFollowsHost && !config.consoleIssuer;
      const origin = follows ? loopbackOrigin(config, host) : undefined;
      if (!origin || origin === config.publicUrl) {
        configured ??= createSignIn(ctx, config.publicUrl);
        return configured;
      }
      let s = byOrigin.get(origin);
      if (!s) {
        s = createSignIn(ctx, origin);
        byOrigin.set(origin, s);
      }
      return s;
    },
  };
}
