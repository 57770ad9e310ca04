import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Env, settingReaders } from '../config/readers.js';

/**
 * The NIA client's settings (docs/configuration.md, docs/nia.md), read by config/config.ts. Each bad
 * value gets one line in `problems`, in every environment; production adds its own lines.
 */
export interface NiaSettings {
  /** Level of assurance asked of NIA (acr_values); the ID token's acr must be this or higher. Empty: not asked, not checked. */
  niaAcr: string;
  /** Portal role -> the provider's claim names tried first (ROS_NIA_CLAIMS); the built-in names follow. */
  niaClaims: Partial<Record<ClaimRole, string>>;
  /** ID token signature algorithms accepted (ROS_NIA_ID_TOKEN_ALGS), further limited to those the provider advertises. */
  niaIdTokenAlgs: string[];
  /** Seconds of clock difference tolerated on exp, nbf and iat. */
  niaClockToleranceSeconds: number;
  /** Time limit of each call to NIA (discovery, JWKS, token, userinfo), seconds. */
  niaTimeoutSeconds: number;
  /** Client authentication at the token endpoint; '' = chosen from discovery. */
  niaTokenAuth: '' | TokenAuth;
  /** PEM files of the private keys NIA encrypts ID tokens and userinfo to (the first is the newest). */
  niaDecryptionKeyFiles: string[];
  /** PEM files of private_key_jwt keys: the first signs the client assertions, all are published (rotation). */
  niaSigningKeyFiles: string[];
}

export const CLAIM_ROLES = ['given_name', 'family_name', 'birthdate', 'person_identifier'] as const;
export type ClaimRole = (typeof CLAIM_ROLES)[number];

export const TOKEN_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt'] as const;
export type TokenAuth = (typeof TOKEN_AUTH_METHODS)[number];

/** JWS algorithms an ID token may be signed with when listed; HS* only when listed explicitly. */
export const KNOWN_ID_TOKEN_ALGS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'HS256',
  'HS384',
  'HS512',
] as const;
export const DEFAULT_ID_TOKEN_ALGS = ['RS256', 'PS256', 'ES256'];
export const DEFAULT_ACR = 'http://eidas.europa.eu/LoA/substantial';

/** A claim name: visible ASCII without the separators of ROS_NIA_CLAIMS. */
const CLAIM_NAME = /^[\x21-\x2b\x2d-\x3c\x3e-\x7e]{1,200}$/;

function claimsSetting(raw: string | undefined, problems: string[]): Partial<Record<ClaimRole, string>> {
  const out: Partial<Record<ClaimRole, string>> = {};
  if (!raw?.trim()) return out;
  for (const part of raw.split(',')) {
    const [role = '', name = '', ...rest] = part.split('=').map((x) => x.trim());
    if (!(CLAIM_ROLES as readonly string[]).includes(role) || !CLAIM_NAME.test(name) || rest.length > 0) {
      problems.push(
        `ROS_NIA_CLAIMS: "${part.trim()}" must be role=ClaimName with a role of ${CLAIM_ROLES.join(', ')} (e.g. given_name=CurrentGivenName)`,
      );
      continue;
    }
    out[role as ClaimRole] = name;
  }
  return out;
}

/** A PEM private key the client can use: RSA of 2048 bits or more, or EC P-256. */
export function readPrivateKey(file: string): KeyObject {
  const key = createPrivateKey(readFileSync(file, 'utf8'));
  const d = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === 'rsa' && (d?.modulusLength ?? 0) >= 2048) return key;
  if (key.asymmetricKeyType === 'ec' && d?.namedCurve === 'prime256v1') return key;
  throw new Error('not an RSA (2048 bits or more) or EC P-256 private key');
}

function keyFiles(name: string, raw: string | undefined, problems: string[]): string[] {
  const files = (raw ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '')
    .map((f) => resolve(f));
  for (const f of files) {
    try {
      readPrivateKey(f);
    } catch (err) {
      const why =
        (err as { code?: string }).code === 'ENOENT' ? 'does not exist' : 'is not a usable PEM private key';
      problems.push(`${name}: ${f} ${why} (a PEM private key, RSA of 2048 bits or more, or EC P-256)`);
    }
  }
  return files;
}

export function niaSettings(env: Env, problems: string[], production: boolean): NiaSettings {
  const algsRaw = env.ROS_NIA_ID_TOKEN_ALGS?.trim();
  const niaIdTokenAlgs = algsRaw ? algsRaw.split(',').map((a) => a.trim()) : DEFAULT_ID_TOKEN_ALGS;
  const unknown = niaIdTokenAlgs.filter((a) => !(KNOWN_ID_TOKEN_ALGS as readonly string[]).includes(a));
  if (unknown.length > 0 || niaIdTokenAlgs.length === 0) {
    problems.push(
      `ROS_NIA_ID_TOKEN_ALGS="${algsRaw}" must list algorithms from: ${KNOWN_ID_TOKEN_ALGS.join(', ')} ("none" is never accepted)`,
    );
  }
  const { int } = settingReaders(env, problems);
  const authRaw = env.ROS_NIA_TOKEN_AUTH?.trim() ?? '';
  let niaTokenAuth: NiaSettings['niaTokenAuth'] = '';
  if (authRaw !== '') {
    if ((TOKEN_AUTH_METHODS as readonly string[]).includes(authRaw)) niaTokenAuth = authRaw as TokenAuth;
    else
      problems.push(
        `ROS_NIA_TOKEN_AUTH="${authRaw}" must be one of: ${TOKEN_AUTH_METHODS.join(', ')} (or unset: chosen from discovery)`,
      );
  }
  const niaSigningKeyFiles = keyFiles('ROS_NIA_SIGNING_KEY_FILE', env.ROS_NIA_SIGNING_KEY_FILE, problems);
  if (niaTokenAuth === 'private_key_jwt' && niaSigningKeyFiles.length === 0) {
    problems.push('ROS_NIA_TOKEN_AUTH=private_key_jwt needs ROS_NIA_SIGNING_KEY_FILE (a PEM private key)');
  }
  const issuer = env.ROS_NIA_ISSUER?.trim() ?? '';
  if (production && issuer && !issuer.startsWith('https://')) {
    problems.push(`ROS_NIA_ISSUER="${issuer}" must be an https:// URL in production`);
  }
  if (production && niaIdTokenAlgs.some((a) => a.startsWith('HS'))) {
    problems.push(
      "ROS_NIA_ID_TOKEN_ALGS lists an HS* algorithm: in production ID tokens must be signed with the provider's private key (RS256, PS256, ES256)",
    );
  }
  return {
    // Unset: substantial; set empty: no level asked for and none checked.
    niaAcr: env.ROS_NIA_ACR === undefined ? DEFAULT_ACR : env.ROS_NIA_ACR.trim(),
    niaClaims: claimsSetting(env.ROS_NIA_CLAIMS, problems),
    niaIdTokenAlgs,
    niaClockToleranceSeconds: int('ROS_NIA_CLOCK_TOLERANCE_SECONDS', 60, 0, 600),
    niaTimeoutSeconds: int('ROS_NIA_TIMEOUT_SECONDS', 10, 1, 120),
    niaTokenAuth,
    niaDecryptionKeyFiles: keyFiles('ROS_NIA_DECRYPTION_KEY_FILE', env.ROS_NIA_DECRYPTION_KEY_FILE, problems),
    niaSigningKeyFiles,
  };
}
