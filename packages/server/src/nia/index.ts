import inject from 'light-my-request';
import type { Config } from '../config/config.js';
import type { ServiceContext } from '../context.js';
import { type Fetch, NiaClient } from './client.js';
import { loadPortalKeys, type PortalKeys } from './keys.js';
import { signInOrigin } from './publicUrl.js';
import { createTestProvider, type TestProvider } from './testProvider.js';

/**
 * NIA sign-in for one public address: its settings, the OpenID client and, when switched on,
 * the local test provider, created on first use (oidc-provider is not even loaded otherwise).
 */
export interface NiaSignIn {
  config: Config;
  client: NiaClient;
  testProvider(): Promise<TestProvider>;
}

/**
 * The NIA service of one app (services.ts): the sign-in for the address of a request, one per
 * address (in development the loopback address the browser used, nia/publicUrl.ts; else the
 * configured one), made on first use and kept for the app's life.
 */
export interface NiaService {
  forHost(host: string | undefined): NiaSignIn;
  /** The portal's own keys (decryption, private_key_jwt), read once; their public halves are /api/ros/sso-jwks. */
  keys(): Promise<PortalKeys>;
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
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  throw new Error('unsupported request body for the local NIA back channel');
}

function createSignIn(ctx: ServiceContext, keys: () => Promise<PortalKeys>): NiaSignIn {
  let provider: Promise<TestProvider> | undefined;
  const testProvider = (): Promise<TestProvider> => {
    if (!ctx.config.niaTestProvider) return Promise.reject(new Error('the NIA test provider is off'));
    provider ??= createTestProvider(ctx);
    return provider;
  };
  // The client reaches the in-process test provider directly (light-my-request), not over the
  // network: nothing depends on the server's own address being reachable from inside.
  const localFetch: Fetch = async (url, options) => {
    const { handle } = await testProvider();
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
  const local = ctx.config.niaTestProvider && !ctx.config.niaIssuer;
  return {
    config: ctx.config,
    client: new NiaClient(ctx.config, keys, local ? localFetch : undefined),
    testProvider,
  };
}

export function createNiaService(ctx: ServiceContext): NiaService {
  let configured: NiaSignIn | undefined;
  const byOrigin = new Map<string, NiaSignIn>();
  let portalKeys: Promise<PortalKeys> | undefined;
  const keys = () => {
    portalKeys ??= loadPortalKeys(ctx.config);
    return portalKeys;
  };
  return {
    keys,
    forHost(host) {
      const origin = signInOrigin(ctx.config, host);
      if (!origin) {
        configured ??= createSignIn(ctx, keys);
        return configured;
      }
      let s = byOrigin.get(origin);
      if (!s) {
        s = createSignIn({ ...ctx, config: { ...ctx.config, publicUrl: origin } }, keys);
        byOrigin.set(origin, s);
      }
      return s;
    },
  };
}
