import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as jose from 'jose';
import { OAuth2Issuer, OAuth2Service } from 'oauth2-mock-server';

/**
 * An OpenID provider nobody here wrote, for the NIA interop tests: oauth2-mock-server issues
 * the codes and the RS256-signed tokens; this thin front in front of it (the same origin, the
 * issuer with a path and a trailing slash) lets a test change what a real provider may do
 * differently: its discovery document, the claims and the signing of the ID token, how it
 * authenticates the client, a userinfo answer as an encrypted JWT, RFC 9207's `iss`, and an
 * outage or a hanging token endpoint.
 */

export type Claims = Record<string, unknown>;

export interface Scenario {
  /** Changes the discovery document (the front's defaults applied first). */
  discovery?: (doc: Claims) => void;
  /** Changes the ID token's claims (and header) before the mock signs it. */
  idToken?: (payload: Claims, header: Claims) => void;
  /** Replaces the mock's signed ID token with another (crafted with jose). */
  replaceIdToken?: (signed: string, payload: jose.JWTPayload) => Promise<string>;
  /** userinfo's claims besides sub (default: the eIDAS claims of PERSON). */
  userinfo?: Claims;
  /** Answer userinfo as this JWT (application/jwt) instead of JSON. */
  userinfoJwt?: (claims: Claims) => Promise<string>;
  /** Changes the redirect back to the portal (e.g. RFC 9207's iss). */
  authorizeRedirect?: (url: URL) => void;
  /** Which client authentication the token endpoint accepts (default: basic or post). */
  tokenAuth?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  /** Every connection is dropped: the provider is down. */
  down?: boolean;
  /** The token endpoint never answers. */
  hangToken?: boolean;
}

/** The person the mock signs in (not in the register). */
export const PERSON = {
  sub: 'mock-person-7f3a',
  given: 'Bohumila',
  family: 'Zástěrová',
  birth: '1961-11-29',
};
export const EIDAS_CLAIMS: Claims = {
  CurrentGivenName: PERSON.given,
  CurrentFamilyName: PERSON.family,
  DateOfBirth: PERSON.birth,
};
export const STANDARD_CLAIMS: Claims = {
  given_name: PERSON.given,
  family_name: PERSON.family,
  birthdate: PERSON.birth,
};
export const LOA_SUBSTANTIAL = 'http://eidas.europa.eu/LoA/substantial';

export interface MockNia {
  /** The issuer identifier, `http://127.0.0.1:<port>/nia/`. */
  issuer: string;
  /** The mock's own signing key (private JWK). */
  signingKey: jose.JWK;
  scenario: Scenario;
  /** Client authentication used at each token request, in order. */
  tokenAuths: string[];
  /** How many times the JWKS was fetched. */
  jwksFetches: number;
  /** The end_session requests' query parameters. */
  endSessions: URLSearchParams[];
  client: { id: string; secret: string };
  /** Where the portal publishes its keys (for private_key_jwt and encryption). */
  portalJwks?: string;
  /** Publishes another public key in the JWKS (a key rotation at the provider). */
  addKey(jwk: jose.JWK): Promise<void>;
  stop(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

export async function startMockNia(client: { id: string; secret: string }): Promise<MockNia> {
  const issuerState = new OAuth2Issuer();
  const signingKey = await issuerState.keys.generate('RS256');
  const service = new OAuth2Service(issuerState);
  const inner = createServer(service.requestHandler);
  const innerPort = await listen(inner);
  const hanging: ServerResponse[] = [];
  // Published beside the mock's own key (not used by the mock for signing).
  const extraKeys: jose.JWK[] = [];
  const mock: MockNia = {
    issuer: '',
    signingKey: issuerState.keys.toJSON(true)[0] as jose.JWK,
    scenario: {},
    tokenAuths: [],
    jwksFetches: 0,
    endSessions: [],
    client,
    async addKey(jwk) {
      extraKeys.push(jwk);
    },
    async stop() {
      for (const r of hanging) r.destroy();
      outer.closeAllConnections();
      inner.closeAllConnections();
      await Promise.all([new Promise((r) => outer.close(r)), new Promise((r) => inner.close(r))]);
    },
  };
  void signingKey;

  service.on('beforeTokenSigning', (token: { header: Claims; payload: Claims }) => {
    // The ID token (the access token has a scope and no audience).
    if (token.payload.aud === undefined || token.payload.scope !== undefined) return;
    token.payload.sub = PERSON.sub;
    token.payload.acr = LOA_SUBSTANTIAL;
    mock.scenario.idToken?.(token.payload, token.header);
  });
  service.on('beforeUserinfo', (response: { body: Claims }) => {
    response.body = { sub: PERSON.sub, ...(mock.scenario.userinfo ?? EIDAS_CLAIMS) };
  });
  service.on('beforeAuthorizeRedirect', (redirect: { url: URL }) => {
    mock.scenario.authorizeRedirect?.(redirect.url);
  });
  service.on('beforePostLogoutRedirect', (_r: unknown, req: IncomingMessage) => {
    mock.endSessions.push(new URL(req.url ?? '/', 'http://x').searchParams);
  });

  /** Which client authentication a token request used, and whether its credentials are right. */
  async function clientAuth(
    req: IncomingMessage,
    body: URLSearchParams,
  ): Promise<{ method: string; ok: boolean }> {
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (basic) {
      const [id, secret] = Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent);
      return { method: 'client_secret_basic', ok: id === client.id && secret === client.secret };
    }
    if (body.get('client_assertion_type') === 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') {
      try {
        const keys = jose.createRemoteJWKSet(new URL(mock.portalJwks ?? 'http://127.0.0.1:1/'));
        await jose.jwtVerify(body.get('client_assertion') ?? '', keys, {
          issuer: client.id,
          subject: client.id,
          audience: [mock.issuer, `${mock.issuer}token`],
        });
        return { method: 'private_key_jwt', ok: true };
      } catch {
        return { method: 'private_key_jwt', ok: false };
      }
    }
    if (body.has('client_secret')) {
      return {
        method: 'client_secret_post',
        ok: body.get('client_id') === client.id && body.get('client_secret') === client.secret,
      };
    }
    return { method: 'none', ok: false };
  }

  const outer = createServer(async (req, res) => {
    const s = mock.scenario;
    if (s.down) {
      req.socket.destroy();
      return;
    }
    const url = new URL(req.url ?? '/', mock.issuer);
    if (!url.pathname.startsWith('/nia/')) return json(res, 404, { error: 'not_found' });
    const path = url.pathname.slice('/nia'.length);
    const raw = await readBody(req);
    if (path === '/token') {
      if (s.hangToken) {
        hanging.push(res);
        return;
      }
      const auth = await clientAuth(req, new URLSearchParams(raw.toString()));
      mock.tokenAuths.push(auth.method);
      const wanted = s.tokenAuth;
      if (!auth.ok || (wanted ? auth.method !== wanted : auth.method === 'private_key_jwt')) {
        return json(res, 401, { error: 'invalid_client' });
      }
    }
    if (path === '/jwks') mock.jwksFetches += 1;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && k !== 'host') headers[k] = v;
    const answer = await fetch(`http://127.0.0.1:${innerPort}${path}${url.search}`, {
      method: req.method,
      headers,
      body: raw.length > 0 ? raw : undefined,
      redirect: 'manual',
    });
    let body = Buffer.from(await answer.arrayBuffer());
    const out: Record<string, string> = {};
    for (const [k, v] of answer.headers) {
      if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) out[k] = v;
    }
    if (path === '/jwks' && extraKeys.length > 0) {
      const set = JSON.parse(body.toString()) as { keys: jose.JWK[] };
      body = Buffer.from(JSON.stringify({ keys: [...set.keys, ...extraKeys] }));
    }
    if (path === '/.well-known/openid-configuration') {
      const doc = JSON.parse(body.toString()) as Claims;
      // A provider as NIA-like ones are: confidential clients, the eIDAS levels.
      doc.token_endpoint_auth_methods_supported = [
        'client_secret_basic',
        'client_secret_post',
        'private_key_jwt',
      ];
      doc.acr_values_supported = [
        'http://eidas.europa.eu/LoA/low',
        LOA_SUBSTANTIAL,
        'http://eidas.europa.eu/LoA/high',
      ];
      s.discovery?.(doc);
      body = Buffer.from(JSON.stringify(doc));
    }
    if (path === '/token' && answer.status === 200 && s.replaceIdToken) {
      const t = JSON.parse(body.toString()) as Claims;
      t.id_token = await s.replaceIdToken(String(t.id_token), jose.decodeJwt(String(t.id_token)));
      body = Buffer.from(JSON.stringify(t));
    }
    if (path === '/userinfo' && answer.status === 200 && s.userinfoJwt) {
      body = Buffer.from(await s.userinfoJwt(JSON.parse(body.toString()) as Claims));
      out['content-type'] = 'application/jwt';
    }
    res.writeHead(answer.status, out);
    res.end(body);
  });
  const port = await listen(outer);
  mock.issuer = `http://127.0.0.1:${port}/nia/`;
  // The mock builds discovery's URLs and the tokens' iss from this (with the path and slash).
  issuerState.url = mock.issuer;
  return mock;
}

/** The mock's signing key as a jose private key (to craft tokens it "signed"). */
export const mockPrivateKey = (mock: MockNia) => jose.importJWK(mock.signingKey, 'RS256');

/** PEM private keys written to `dir`: RSA and EC P-256 for decryption, RSA for private_key_jwt. */
export function writeTestKeys(dir: string): { rsa: string; ec: string; signing: string } {
  const write = (name: string, pem: string) => {
    const f = join(dir, name);
    writeFileSync(f, pem, { mode: 0o600 });
    return f;
  };
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  });
  // SEC1 ("EC PRIVATE KEY") on purpose: the format openssl ecparam writes.
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({
    type: 'sec1',
    format: 'pem',
  });
  const signing = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs1',
    format: 'pem',
  });
  return {
    rsa: write('rsa.pem', String(rsa)),
    ec: write('ec.pem', String(ec)),
    signing: write('signing.pem', String(signing)),
  };
}
