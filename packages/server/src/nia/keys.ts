import { createPublicKey, type KeyObject } from 'node:crypto';
import * as jose from 'jose';
import type { CryptoKey, DecryptionKey } from 'openid-client';
import type { Config } from '../config/config.js';
import { readPrivateKey } from './config.js';

/**
 * The portal's own keys towards NIA (docs/nia.md "Keys"): the decryption keys NIA encrypts ID
 * tokens and userinfo to (ROS_NIA_DECRYPTION_KEY_FILE) and the key that signs private_key_jwt
 * client assertions (ROS_NIA_SIGNING_KEY_FILE). Their public halves are published at
 * /api/ros/sso-jwks; each key's kid is its RFC 7638 thumbprint, so it never has to be configured.
 */
export interface PortalKeys {
  /** For openid-client's enableDecryptingResponses: one entry per key and JWE algorithm. */
  decryption: DecryptionKey[];
  signing: { key: CryptoKey; kid: string; alg: string } | undefined;
  /** The public JWK Set published at /api/ros/sso-jwks. */
  jwks: { keys: jose.JWK[] };
}

/** JWE key management algorithms accepted per key type (content: A128/A256 GCM, A128/A256 CBC-HS). */
const RSA_JWE_ALGS = ['RSA-OAEP', 'RSA-OAEP-256'];
const EC_JWE_ALGS = ['ECDH-ES'];
export const JWE_CONTENT_ALGS = ['A128GCM', 'A256GCM', 'A128CBC-HS256', 'A256CBC-HS512'];

const pkcs8 = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();

async function publicJwk(key: KeyObject, use: 'enc' | 'sig', alg?: string): Promise<jose.JWK> {
  const jwk = createPublicKey(key).export({ format: 'jwk' }) as jose.JWK;
  const kid = await jose.calculateJwkThumbprint(jwk);
  return { ...jwk, kid, use, ...(alg ? { alg } : {}) };
}

export async function loadPortalKeys(config: Config): Promise<PortalKeys> {
  const decryption: DecryptionKey[] = [];
  const published: jose.JWK[] = [];
  for (const file of config.niaDecryptionKeyFiles) {
    const key = readPrivateKey(file);
    const jwk = await publicJwk(key, 'enc');
    published.push(jwk);
    const algs = key.asymmetricKeyType === 'rsa' ? RSA_JWE_ALGS : EC_JWE_ALGS;
    for (const alg of algs) {
      const cryptoKey = (await jose.importPKCS8(pkcs8(key), alg)) as CryptoKey;
      decryption.push({ key: cryptoKey, alg, kid: jwk.kid as string });
    }
  }
  let signing: PortalKeys['signing'];
  for (const file of config.niaSigningKeyFiles) {
    const key = readPrivateKey(file);
    const alg = key.asymmetricKeyType === 'rsa' ? 'RS256' : 'ES256';
    const jwk = await publicJwk(key, 'sig', alg);
    published.push(jwk);
    // The first signs; the others are only published (the next or the previous key of a rotation).
    signing ??= { key: (await jose.importPKCS8(pkcs8(key), alg)) as CryptoKey, kid: jwk.kid as string, alg };
  }
  return { decryption, signing, jwks: { keys: published } };
}
