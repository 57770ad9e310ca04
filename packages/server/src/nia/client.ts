import * as oidc from 'openid-client';
import type { Config } from '../config.js';
import { identityFromClaims } from './identity.js';
import type { NiaIdentity, PendingSignIn } from './sessions.js';
import { acrSatisfies, callbackUrl, issuerOf } from './settings.js';

/**
 * The OpenID Connect client for NIA (openid-client): authorization code flow with PKCE (S256),
 * state and nonce. Discovery happens on first use and is retried on the next sign-in when
 * NIA could not be reached.
 */

/** Why a sign-in failed: a fixed word for the log (never personal data). */
export class SignInError extends Error {
  constructor(public readonly reason: string) {
    super(`NIA sign-in failed: ${reason}`);
  }
}

export type Fetch = (url: string, options: oidc.CustomFetchOptions) => Promise<Response>;

export class NiaClient {
  private configuration: Promise<oidc.Configuration> | undefined;

  /** `localFetch`: the back channel to the in-process test provider (no network hop). */
  constructor(
    private readonly config: Config,
    private readonly localFetch?: Fetch,
  ) {}

  private discover(): Promise<oidc.Configuration> {
    if (!this.configuration) {
      const issuer = new URL(issuerOf(this.config));
      const options: oidc.DiscoveryRequestOptions = {};
      if (issuer.protocol === 'http:') options.execute = [oidc.allowInsecureRequests];
      if (this.localFetch) options[oidc.customFetch] = this.localFetch as oidc.CustomFetch;
      this.configuration = oidc
        .discovery(
          issuer,
          this.config.niaClientId,
          this.config.niaClientSecret,
          oidc.ClientSecretPost(this.config.niaClientSecret),
          options,
        )
        .catch((err: unknown) => {
          this.configuration = undefined;
          throw err;
        });
    }
    return this.configuration;
  }

  /** Starts a sign-in: the URL to send the browser to and what the callback must check. */
  async start(): Promise<{ url: string; flow: PendingSignIn }> {
    let configuration: oidc.Configuration;
    try {
      configuration = await this.discover();
    } catch {
      throw new SignInError('discovery_failed');
    }
    const flow: PendingSignIn = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: callbackUrl(this.config),
      scope: this.config.niaScope,
      response_type: 'code',
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
      code_challenge_method: 'S256',
      acr_values: this.config.niaAcr,
      // Always a fresh sign-in: on a shared or public computer nobody continues someone else's.
      prompt: 'login',
    });
    return { url: url.href, flow };
  }

  /**
   * Checks the callback (state, the code exchange with the PKCE verifier, the ID token's
   * signature, issuer, audience, nonce and level of assurance), reads the user info and
   * returns the identity. Throws SignInError with a reason word.
   */
  async finish(query: string, flow: PendingSignIn): Promise<NiaIdentity> {
    const configuration = await this.discover().catch(() => {
      throw new SignInError('discovery_failed');
    });
    const current = new URL(callbackUrl(this.config));
    current.search = query;
    if (current.searchParams.has('error')) {
      throw new SignInError(
        current.searchParams.get('error') === 'access_denied' ? 'cancelled' : 'provider_error',
      );
    }
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new SignInError(
        typeof code === 'string' && /^[A-Z_]{3,60}$/.test(code)
          ? `token_${code.toLowerCase()}`
          : 'token_failed',
      );
    }
    const idClaims = tokens.claims();
    if (!idClaims) throw new SignInError('no_id_token');
    if (!acrSatisfies(idClaims.acr, this.config.niaAcr)) throw new SignInError('acr_too_low');
    let userInfo: Record<string, unknown> = {};
    try {
      userInfo = await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
    } catch {
      throw new SignInError('userinfo_failed');
    }
    const identity = identityFromClaims({ ...idClaims, ...userInfo });
    if (!identity) throw new SignInError('no_person_identifier');
    return identity;
  }
}
