import { AsyncLocalStorage } from 'node:async_hooks';
import * as jose from 'jose';
import * as oidc from 'openid-client';
import type { Config } from '../config/config.js';
import { clientSecretBasic } from './clientAuth.js';
import type { TokenAuth } from './config.js';
import { identityFromClaims } from './identity.js';
import { JWE_CONTENT_ALGS, type PortalKeys } from './keys.js';
import { reasonOf, SignInError } from './reasons.js';
import type { NiaIdentity, PendingSignIn } from './sessions.js';
import { acrSatisfies, callbackUrl, issuerOf } from './settings.js';

export { SignInError } from './reasons.js';

/**
 * The OpenID Connect client for NIA (openid-client, docs/nia.md): authorization code flow with
 * PKCE (S256), state, nonce and RFC 9207's `iss`. openid-client checks the protocol (state,
 * iss, nonce, aud/azp, exp, the client authentication, JWE decryption, userinfo's sub); jose
 * checks every ID token's signature against the provider's JWKS with the algorithm allow-list,
 * since openid-client does not check signatures of tokens it got over TLS by default.
 */

export type Fetch = (url: string, options: oidc.CustomFetchOptions) => Promise<Response>;

/** Discovery is fetched again after this long (and after a failure that stale metadata could cause). */
export const METADATA_REFRESH_MS = 60 * 60_000;
/** The provider's JWKS: kept at most this long; a token with an unknown kid re-fetches it at most once a minute. */
export const JWKS_MAX_AGE_MS = 10 * 60_000;
export const JWKS_COOLDOWN_MS = 60_000;
/** An ID token older than this (by its iat, plus the clock tolerance) is refused: it comes straight from the token endpoint. */
const ID_TOKEN_MAX_AGE_SECONDS = 600;

interface Discovered {
  configuration: oidc.Configuration;
  jwks: jose.JWTVerifyGetKey | undefined;
  /** The allow-list (ROS_NIA_ID_TOKEN_ALGS) intersected with what the provider advertises. */
  algorithms: string[];
  /** The same allow-list for a signed userinfo answer (userinfo_signing_alg_values_supported, else the ID token's). */
  userinfoAlgorithms: string[];
  tokenAuth: TokenAuth;
  at: number;
}

/** What a finished sign-in gives: the identity and the ID token, kept as the hint for signing out at NIA. */
export interface FinishedSignIn {
  identity: NiaIdentity;
  idToken: string;
}

/** client_secret_basic when offered (the OAuth default), else client_secret_post; private_key_jwt when a signing key is set and it is offered. */
export function chooseTokenAuth(
  config: Config,
  offered: readonly string[] | undefined,
  hasSigningKey: boolean,
): TokenAuth {
  if (config.niaTokenAuth) return config.niaTokenAuth;
  const methods = offered ?? ['client_secret_basic'];
  if (hasSigningKey && methods.includes('private_key_jwt')) return 'private_key_jwt';
  if (methods.includes('client_secret_basic')) return 'client_secret_basic';
  if (methods.includes('client_secret_post')) return 'client_secret_post';
  return 'client_secret_basic';
}

/** The raw body of a userinfo answer that is a JWT (application/jwt), caught on its way to openid-client. */
const userinfoBody = new AsyncLocalStorage<{ jwt?: string }>();
const isJwtAnswer = (res: Response) =>
  (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() === 'application/jwt';

/** Failures after which discovery (endpoints, jwks_uri) is fetched again at the next sign-in. */
const STALE_REASONS =
  /_(unreachable|timeout|http_status|failed|invalid_client)$|^id_token_key_unknown$|^jwks_/;

export class NiaClient {
  private discovered: Promise<Discovered> | undefined;
  private stale = false;
  /** The JWKS of the last jwks_uri, kept across discovery refreshes: its re-fetch limit holds whatever happens. */
  private jwks: { uri: string; get: jose.JWTVerifyGetKey } | undefined;

  /** `localFetch`: the back channel to the in-process test provider (no network hop). */
  constructor(
    private readonly config: Config,
    private readonly keys: () => Promise<PortalKeys>,
    private readonly localFetch?: Fetch,
    private readonly now: () => number = () => Date.now(),
  ) {}

  private async load(): Promise<Discovered> {
    const { config } = this;
    const issuer = new URL(issuerOf(config));
    const insecure = issuer.protocol === 'http:';
    const options: oidc.DiscoveryRequestOptions = { timeout: config.niaTimeoutSeconds };
    if (insecure) options.execute = [oidc.allowInsecureRequests];
    if (this.localFetch) options[oidc.customFetch] = this.localFetch as oidc.CustomFetch;
    // The issuer exactly as configured: openid-client requires discovery's `issuer` to be it.
    const found = await oidc.discovery(issuer, config.niaClientId, undefined, oidc.None(), options);
    const server = found.serverMetadata();
    const keys = await this.keys();
    const tokenAuth = chooseTokenAuth(config, server.token_endpoint_auth_methods_supported, !!keys.signing);
    const auth =
      tokenAuth === 'private_key_jwt' && keys.signing
        ? oidc.PrivateKeyJwt({ key: keys.signing.key, kid: keys.signing.kid })
        : tokenAuth === 'client_secret_post'
          ? oidc.ClientSecretPost(config.niaClientSecret)
          : // Not oidc.ClientSecretBasic: it sends "-" as "%2D", which literal readers do not undo.
            clientSecretBasic(config.niaClientSecret);
    // OpenID Connect Discovery: RS256 when the provider advertises nothing.
    const advertised = server.id_token_signing_alg_values_supported ?? ['RS256'];
    const userinfoAlgorithms = config.niaIdTokenAlgs.filter((a) =>
      (server.userinfo_signing_alg_values_supported ?? advertised).includes(a),
    );
    const configuration = new oidc.Configuration(
      // openid-client checks a userinfo JWT's alg against this list (the allow-list, never `none`).
      {
        ...(JSON.parse(JSON.stringify(server)) as oidc.ServerMetadata),
        userinfo_signing_alg_values_supported: userinfoAlgorithms,
      },
      config.niaClientId,
      { [oidc.clockTolerance]: config.niaClockToleranceSeconds },
      auth,
    );
    configuration.timeout = config.niaTimeoutSeconds;
    if (insecure) oidc.allowInsecureRequests(configuration);
    // Every call through one fetch that keeps a signed userinfo answer's JWT for its signature
    // check (openid-client does not check it, and does not hand it out).
    const base: Fetch = this.localFetch ?? ((url, init) => fetch(url, init as RequestInit));
    configuration[oidc.customFetch] = (async (url: string, init: oidc.CustomFetchOptions) => {
      const res = await base(url, init);
      const slot = userinfoBody.getStore();
      if (slot && isJwtAnswer(res)) slot.jwt = await res.clone().text();
      return res;
    }) as oidc.CustomFetch;
    if (keys.decryption.length > 0) {
      oidc.enableDecryptingResponses(configuration, JWE_CONTENT_ALGS, ...keys.decryption);
    }
    const jwksOptions: jose.RemoteJWKSetOptions = {
      timeoutDuration: config.niaTimeoutSeconds * 1000,
      cooldownDuration: JWKS_COOLDOWN_MS,
      cacheMaxAge: JWKS_MAX_AGE_MS,
    };
    if (this.localFetch)
      jwksOptions[jose.customFetch] = this.localFetch as unknown as jose.FetchImplementation;
    const uri = server.jwks_uri;
    if (uri && this.jwks?.uri !== uri)
      this.jwks = { uri, get: jose.createRemoteJWKSet(new URL(uri), jwksOptions) };
    return {
      configuration,
      jwks: uri ? this.jwks?.get : undefined,
      algorithms: config.niaIdTokenAlgs.filter((a) => advertised.includes(a)),
      userinfoAlgorithms,
      tokenAuth,
      at: this.now(),
    };
  }

  /** Fetch discovery (and so the JWKS) again at the next sign-in: after NIA changed its endpoints or keys. */
  refresh(): void {
    this.stale = true;
  }

  /** The provider's metadata: fetched on first use, again after METADATA_REFRESH_MS or a failure. */
  private async discover(): Promise<Discovered> {
    const cached = this.discovered;
    if (cached && !this.stale) {
      const d = await cached.catch(() => undefined);
      if (d && this.now() - d.at < METADATA_REFRESH_MS) return d;
    }
    // One fetch at a time: sign-ins that arrive meanwhile wait for the same one.
    if (this.discovered === cached) {
      this.stale = false;
      const loading = this.load();
      this.discovered = loading;
      loading.catch(() => {
        if (this.discovered === loading) this.discovered = undefined;
      });
    }
    try {
      return await (this.discovered as Promise<Discovered>);
    } catch (err) {
      throw new SignInError(reasonOf('discovery', err));
    }
  }

  /** Starts a sign-in: the URL to send the browser to and what the callback must check. */
  async start(): Promise<{ url: string; flow: PendingSignIn }> {
    const { configuration } = await this.discover();
    const flow: PendingSignIn = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    const params: Record<string, string> = {
      redirect_uri: callbackUrl(this.config),
      scope: this.config.niaScope,
      response_type: 'code',
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
      code_challenge_method: 'S256',
      // Always a fresh sign-in: on a shared or public computer nobody continues someone else's.
      prompt: 'login',
    };
    if (this.config.niaAcr) params.acr_values = this.config.niaAcr;
    return { url: oidc.buildAuthorizationUrl(configuration, params).href, flow };
  }

  /**
   * Checks the callback, exchanges the code, verifies the ID token, reads userinfo when the
   * provider has it and returns the identity. Throws SignInError with a reason word.
   */
  async finish(query: string, flow: PendingSignIn): Promise<FinishedSignIn> {
    const d = await this.discover();
    try {
      return await this.complete(d, query, flow);
    } catch (err) {
      const reason = reasonOf('token', err);
      if (STALE_REASONS.test(reason)) this.stale = true;
      throw new SignInError(reason);
    }
  }

  private async complete(d: Discovered, query: string, flow: PendingSignIn): Promise<FinishedSignIn> {
    const current = new URL(callbackUrl(this.config));
    current.search = query;
    if (current.searchParams.has('error')) {
      throw new SignInError(
        current.searchParams.get('error') === 'access_denied' ? 'cancelled' : 'provider_error',
      );
    }
    const tokens = await oidc.authorizationCodeGrant(d.configuration, current, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.id_token;
    if (!idToken) throw new SignInError('no_id_token');
    // The signed ID token (inside the JWE when NIA encrypted it).
    const signed = oidc.getDecryptedResponses(tokens)?.id_token?.token_endpoint ?? idToken;
    const claims = await this.verify(d, signed);
    if (this.config.niaAcr && !acrSatisfies(claims.acr, this.config.niaAcr)) {
      throw new SignInError(claims.acr === undefined ? 'acr_missing' : 'acr_too_low');
    }
    let userInfo: Record<string, unknown> = {};
    if (d.configuration.serverMetadata().userinfo_endpoint) {
      const slot: { jwt?: string } = {};
      try {
        // openid-client refuses a userinfo answer whose sub is not the ID token's.
        userInfo = await userinfoBody.run(slot, () =>
          oidc.fetchUserInfo(d.configuration, tokens.access_token, claims.sub as string),
        );
      } catch (err) {
        // openid-client's own checks of a userinfo JWT (iss, aud, alg) name the claim like the ID token's.
        throw new SignInError(reasonOf('userinfo', err).replace(/^id_token_/, 'userinfo_'));
      }
      if (userInfo.sub !== claims.sub) throw new SignInError('userinfo_sub_mismatch');
      if (slot.jwt !== undefined) {
        // A signed (maybe also encrypted) userinfo answer: its signature under the ID token's rules.
        const decrypted = oidc.getDecryptedResponses(userInfo as never) as unknown;
        const jws = typeof decrypted === 'string' ? decrypted : slot.jwt;
        userInfo = await this.verifyUserinfo(d, jws);
        if (userInfo.sub !== claims.sub) throw new SignInError('userinfo_sub_mismatch');
      }
    }
    const identity = identityFromClaims({ ...claims, ...userInfo }, this.config.niaClaims);
    if (!identity) throw new SignInError('no_person_identifier');
    return { identity, idToken };
  }

  /** The provider's key for a JWS: its JWKS or, for HS* when allowed, the client secret. */
  private keyFor(d: Discovered): jose.JWTVerifyGetKey {
    const secret = new TextEncoder().encode(this.config.niaClientSecret);
    return async (header, token) => {
      if (header.alg?.startsWith('HS')) return secret;
      if (!d.jwks) throw new SignInError('no_jwks_uri');
      return d.jwks(header, token);
    };
  }

  /**
   * A userinfo answer sent as a JWT: the ID token's rules (docs/nia.md): an algorithm of the
   * allow-list that the provider advertises (`none` never), a key of the provider's JWKS, `iss`
   * exactly the issuer, `aud` this client, `exp`/`nbf` when present with the clock tolerance.
   * Reason words `userinfo_signature`, `userinfo_alg`, `userinfo_key_unknown`, `userinfo_iss`, …
   */
  private async verifyUserinfo(d: Discovered, jws: string): Promise<Record<string, unknown>> {
    try {
      const { payload } = await jose.jwtVerify(jws, this.keyFor(d), {
        algorithms: d.userinfoAlgorithms,
        issuer: d.configuration.serverMetadata().issuer,
        audience: this.config.niaClientId,
        clockTolerance: this.config.niaClockToleranceSeconds,
        requiredClaims: ['iss', 'aud', 'sub'],
        currentDate: new Date(this.now()),
      });
      return payload;
    } catch (err) {
      const reason = reasonOf('userinfo', err);
      throw new SignInError(reason.replace(/^id_token_/, 'userinfo_'));
    }
  }

  /** The ID token's signature (allow-list, provider's JWKS or, for HS* when allowed, the client secret), iss, aud and times. */
  private async verify(d: Discovered, jws: string): Promise<jose.JWTPayload> {
    const { payload } = await jose.jwtVerify(jws, this.keyFor(d), {
      algorithms: d.algorithms,
      issuer: d.configuration.serverMetadata().issuer,
      audience: this.config.niaClientId,
      clockTolerance: this.config.niaClockToleranceSeconds,
      maxTokenAge: ID_TOKEN_MAX_AGE_SECONDS,
      requiredClaims: ['exp', 'iat', 'sub'],
      currentDate: new Date(this.now()),
    });
    return payload;
  }

  /**
   * Where to send the browser to sign out at NIA (RP-initiated logout), or undefined when the
   * provider advertises no end_session_endpoint or cannot be reached.
   */
  async endSessionUrl(
    idTokenHint: string | undefined,
    postLogout: string,
    uiLocale: 'cs' | 'en',
  ): Promise<string | undefined> {
    let d: Discovered;
    try {
      d = await this.discover();
    } catch {
      return undefined;
    }
    if (!d.configuration.serverMetadata().end_session_endpoint) return undefined;
    const params: Record<string, string> = {
      client_id: this.config.niaClientId,
      post_logout_redirect_uri: postLogout,
      ui_locales: uiLocale,
    };
    if (idTokenHint) params.id_token_hint = idTokenHint;
    return oidc.buildEndSessionUrl(d.configuration, params).href;
  }
}
