import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/**
 * What a secret's value says about how it was made (config/config.ts secretProblems, issue 33 item 3),
 * beside config/secrets.ts's entropy estimate and its list of the repository's tokens:
 *
 * - `guessesLog10`: zxcvbn-ts's estimate (a maintained strength estimator: dictionaries of common
 *   passwords, names and words, keyboard walks, dates, repeats, l33t) of the guesses an attacker
 *   needs, as a power of ten. A made-up key (`ros-production-altcha-key-2026-prague`,
 *   `qwertyuiopasdfghjklzxcvbnm123456`) scores far below its length; a generated one scores
 *   about one power of ten per character.
 * - `knownDigest`: the value is a digest (MD5, SHA-1, SHA-256, SHA-512; hex or base64) of the empty
 *   string or a common word: it looks random and is not.
 *
 * zxcvbn's dictionaries are read on the first use only (production's start), and each value is
 * judged once per process.
 */
let factory: ZxcvbnFactory | undefined;
const judged = new Map<string, number>();

export function guessesLog10(secret: string): number {
  const known = judged.get(secret);
  if (known !== undefined) return known;
  if (!factory) {
    const require = createRequire(import.meta.url);
    const core = require('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
    const common = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    factory = new core.ZxcvbnFactory({
      dictionary: { ...common.dictionary },
      graphs: common.adjacencyGraphs,
    });
  }
  const value = factory.check(secret).guessesLog10;
  judged.set(secret, value);
  return value;
}

/** Values whose digests people paste as keys. */
const COMMON_VALUES = [
  '',
  ' ',
  '\n',
  '0',
  '1',
  'a',
  'admin',
  'changeme',
  'default',
  'key',
  'null',
  'password',
  'ros',
  'secret',
  'test',
  'undefined',
];
const DIGESTS = ['md5', 'sha1', 'sha256', 'sha512'];

let knownDigests: Set<string> | undefined;

/** Whether `secret` is a digest of the empty string or a common value (any case, hex or base64). */
export function isKnownDigest(secret: string): boolean {
  knownDigests ??= new Set(
    COMMON_VALUES.flatMap((v) =>
      DIGESTS.flatMap((d) => {
        const digest = createHash(d).update(v).digest();
        return [digest.toString('hex'), digest.toString('base64'), digest.toString('base64url')];
      }),
    ),
  );
  const trimmed = secret.trim();
  return knownDigests.has(trimmed) || knownDigests.has(trimmed.toLowerCase());
}
