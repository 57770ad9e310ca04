import * as jose from 'jose';
import * as oidc from 'openid-client';
import { type Fetch, JWKS_COOLDOWN_MS, JWKS_MAX_AGE_MS, METADATA_REFRESH_MS } from '../../nia/client.js';
import { clientSecretBasic } from '../../nia/clientAuth.js';
import { reasonOf, SignInError } from '../../nia/reasons.js';
import type { StaffRole } from '../staff.js';
import { displayName, hasName, MAX_SUBJECT_LENGTH, roleClaimMissing, staffRole } from './roles.js';

export { SignInError } from '../../nia/reasons.js';

/**
 * The console's OpenID Connect client for the authority's identity provider (openid-client,
 * docs/console-signin.md): discovery, authorization code flow with PKCE (S256), state, nonce
 * and RFC 9207's `iss`, every sign-in a fresh one (prompt=login). openid-client checks the
 * protocol (state, iss, the code exchange, nonce, aud/azp, exp, userinfo's sub); jose checks
 * every ID token's signature against the provider's JWKS with the algorithm allow-list, as the
 * NIA client does (nia/client.ts), since openid-client does not check tokens it got over TLS.
 */

/** ID token signature algorithms accepted (further limited to those the provider advertises); HS* and none never. */
export const CONSOLE_ID_TOKEN_ALGS = ['RS256', 'PS256', 'ES256'];
/** Every call to the provider (discovery, JWKS, token, userinfo) gives up after this long. */
const TIMEOUT_SECONDS = 10;
/** Clock difference tolerated on exp, nbf and iat. */
const CLOCK_TOLERANCE_SECONDS = 60;
/** An ID token older than this (by its iat) is refused: it comes straight from the token endpoint. */
const ID_TOKEN_MAX_AGE_SECONDS = 600;

export interface ConsoleClientOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  redirectUri: string;
  roleClaim: string;
  subjects: ReadonlyMap<string, StaffRole> | null;
}

/** What the callback must check: made from the pending sign-in's cookie (sessions.ts). */
export interface ConsoleFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Who signed in: the provider's `sub`, a display name and the role (null: none, refused). */
export interface ConsoleIdentity {
  subject: string;
  name: string;
  role: StaffRole | null;
}

interface Discovered {
  configuration: oidc.Configuration;
  jwks: jose.JWTVerifyGetKey | undefined;
  algorithms: string[];
  at: number;
}

const isJwtAnswer = (res: Response) =>
  (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() === 'application/jwt';

/** Failures after which discovery (endpoints, jwks_uri) is fetched again at the next sign-in. */
const STALE_REASONS =
  /_(unreachable|timeout|http_status|failed|invalid_client)$|^id_token_key_unknown$|^jwks_/;

/** A SignInError anywhere in an error's chain of causes (one our own fetch threw). */
function ownReason(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 6 && e && typeof e === 'object'; i++) {
    if (e instanceof SignInError) return e.reason;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export class ConsoleClient {
  private discovered: Promise<Discovered> | undefined;
  private stale = false;
  private jwks: { uri: string; get: jose.JWTVerifyGetKey } | undefined;

  /** `localFetch`: the back channel to the in-process test provider (no network hop). */
  constructor(
    private readonly o: ConsoleClientOptions,
    private readonly localFetch?: Fetch,
    private readonly now: () => number = () => Date.now(),
  ) {}

  private async load(): Promise<Discovered> {
    const { o } = this;
    const issuer = new URL(o.issuer);
    const insecure = issuer.protocol === 'http:';
    const options: oidc.DiscoveryRequestOptions = { timeout: TIMEOUT_SECONDS };
    if (insecure) options.execute = [oidc.allowInsecureRequests];
    if (this.localFetch) options[oidc.customFetch] = this.localFetch as oidc.CustomFetch;
    // The issuer exactly as configured: openid-client requires discovery's `issuer` to be it.
    const found = await oidc.discovery(issuer, o.clientId, undefined, oidc.None(), options);
    const server = found.serverMetadata();
    // client_secret_basic when offered (or nothing is listed: the OAuth default), else _post.
    const offered = server.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    const auth =
      !offered.includes('client_secret_basic') && offered.includes('client_secret_post')
        ? oidc.ClientSecretPost(o.clientSecret)
        : clientSecretBasic(o.clientSecret);
    const advertised = server.id_token_signing_alg_values_supported ?? ['RS256'];
    const configuration = new oidc.Configuration(
      JSON.parse(JSON.stringify(server)) as oidc.ServerMetadata,
      o.clientId,
      { [oidc.clockTolerance]: CLOCK_TOLERANCE_SECONDS },
      auth,
    );
    configuration.timeout = TIMEOUT_SECONDS;
    if (insecure) oidc.allowInsecureRequests(configuration);
    const base: Fetch = this.localFetch ?? ((url, init) => fetch(url, init as RequestInit));
    const userinfoAt = server.userinfo_endpoint;
    configuration[oidc.customFetch] = (async (url: string, init: oidc.CustomFetchOptions) => {
      const res = await base(url, init);
      // A signed userinfo answer is not taken: the console asks for plain JSON (docs/console-signin.md).
      if (userinfoAt && url.startsWith(userinfoAt) && isJwtAnswer(res))
        throw new SignInError('userinfo_signed');
      return res;
    }) as oidc.CustomFetch;
    const jwksOptions: jose.RemoteJWKSetOptions = {
      timeoutDuration: TIMEOUT_SECONDS * 1000,
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
      algorithms: CONSOLE_ID_TOKEN_ALGS.filter((a) => advertised.includes(a)),
      at: this.now(),
    };
  }

  /** Fetch discovery (and so the JWKS) again at the next sign-in. */
  refresh(): void {
    this.stale = true;
  }

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

  /** The provider's authorization URL for a sign-in with this flow. Throws SignInError. */
  async start(flow: ConsoleFlow): Promise<string> {
    const { configuration } = await this.discover();
    const params: Record<string, string> = {
      redirect_uri: this.o.redirectUri,
      scope: this.o.scope,
      response_type: 'code',
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
      code_challenge_method: 'S256',
      // A fresh sign-in every time: nobody continues a colleague's session on a shared computer.
      prompt: 'login',
    };
    return oidc.buildAuthorizationUrl(configuration, params).href;
  }

  /**
   * Checks the callback (its query string, `?code=…&state=…`), exchanges the code, verifies the
   * ID token, reads userinfo when the ID token lacks the role claim or a name and returns who
   * signed in. Throws SignInError with a reason word (`cancelled` when the person cancelled).
   */
  async finish(query: string, flow: ConsoleFlow): Promise<ConsoleIdentity> {
    const current = new URL(this.o.redirectUri);
    current.search = query;
    if (current.searchParams.has('error')) {
      throw new SignInError(
        current.searchParams.get('error') === 'access_denied' ? 'cancelled' : 'provider_error',
      );
    }
    const d = await this.discover();
    try {
      return await this.complete(d, current, flow);
    } catch (err) {
      const reason = ownReason(err) ?? reasonOf('token', err);
      if (STALE_REASONS.test(reason)) this.stale = true;
      throw new SignInError(reason);
    }
  }

  private async complete(d: Discovered, current: URL, flow: ConsoleFlow): Promise<ConsoleIdentity> {
    const tokens = await oidc.authorizationCodeGrant(d.configuration, current, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    if (!tokens.id_token) throw new SignInError('no_id_token');
    const idClaims = await this.verify(d, tokens.id_token);
    const subject = idClaims.sub;
    if (typeof subject !== 'string' || subject === '') throw new SignInError('id_token_sub');
    if (subject.length > MAX_SUBJECT_LENGTH) throw new SignInError('subject_too_long');
    let claims: Record<string, unknown> = idClaims;
    const roleOpts = { roleClaim: this.o.roleClaim, subjects: this.o.subjects };
    const userinfo = d.configuration.serverMetadata().userinfo_endpoint;
    if (userinfo && (roleClaimMissing(idClaims, roleOpts) || !hasName(idClaims))) {
      let info: Record<string, unknown>;
      try {
        // openid-client refuses an answer whose sub is not the ID token's.
        info = await oidc.fetchUserInfo(d.configuration, tokens.access_token, subject);
      } catch (err) {
        throw new SignInError(ownReason(err) ?? reasonOf('userinfo', err));
      }
      if (info.sub !== subject) throw new SignInError('userinfo_sub_mismatch');
      // The signed ID token's claims win over userinfo's.
      claims = { ...info, ...idClaims };
    }
    return { subject, name: displayName(claims, subject), role: staffRole(subject, claims, roleOpts) };
  }

  /** The ID token's signature (allow-list, the provider's JWKS), iss, aud and times. */
  private async verify(d: Discovered, jws: string): Promise<jose.JWTPayload> {
    const jwks = d.jwks;
    if (!jwks) throw new SignInError('no_jwks_uri');
    const { payload } = await jose.jwtVerify(jws, jwks, {
      algorithms: d.algorithms,
      issuer: d.configuration.serverMetadata().issuer,
      audience: this.o.clientId,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      maxTokenAge: ID_TOKEN_MAX_AGE_SECONDS,
      requiredClaims: ['exp', 'iat', 'sub'],
      currentDate: new Date(this.now()),
    });
    return payload;
  }
}
