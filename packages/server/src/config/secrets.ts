import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What production refuses in a secret (config/config.ts productionProblems, docs/SECURITY.md):
 *
 * - too little entropy, as estimated here (the bits of the smallest usual alphabet that holds the
 *   characters, per character; a character that repeats or continues a run of the one before
 *   adds almost nothing, and a text made of one block repeated counts that block once);
 * - a value published in this repository (tests, the bench, the docs): anyone can read those;
 *   also in other case, with other punctuation or inside a longer value (`publishedIn`).
 *
 * The repository check works on a list of hashes (SHA-256, first 64 bits) of every token of 12
 * or more characters in the repository's files. The build writes it to
 * packages/server/dist/published-secrets.txt (scripts/build.mjs), so an install that ships only
 * the built server still has it; where the repository is present (a clone: `npm start`) it is
 * also scanned at start, so a secret added to a file after the last build is refused too.
 * Without either, production refuses to start rather than skip the check.
 */

/** Shortest token the repository list holds; secrets shorter than this are refused for length. */
export const MIN_TOKEN_LENGTH = 12;

const ALPHABETS: Array<[bits: number, re: RegExp]> = [
  [Math.log2(10), /^[0-9]+$/],
  [4, /^[0-9a-f]+$/],
  [4, /^[0-9A-F]+$/],
  [Math.log2(26), /^[a-z]+$/],
  [Math.log2(26), /^[A-Z]+$/],
  [Math.log2(36), /^[0-9a-z]+$/],
  [Math.log2(36), /^[0-9A-Z]+$/],
  [Math.log2(62), /^[0-9A-Za-z]+$/],
  [6, /^[0-9A-Za-z+/=_-]+$/],
  [Math.log2(95), /^[\x20-\x7e]+$/],
];

/** The smallest period p such that the text is its first p characters repeated (or cut short). */
function period(chars: number[]): number {
  for (let p = 1; p <= chars.length / 2; p++) {
    let repeats = true;
    for (let i = p; i < chars.length && repeats; i++) repeats = chars[i] === chars[i - p];
    if (repeats) return p;
  }
  return chars.length;
}

/**
 * A conservative estimate of a secret's entropy in bits, for refusing made-up keys: 32 × "a"
 * scores 4, `abcd…xyz` little, `openssl rand -hex 32` about 250. Words are not recognised:
 * the refusal catches made-up keys, it does not prove a key random.
 */
export function estimateEntropyBits(secret: string): number {
  const all = [...secret].map((c) => c.codePointAt(0) ?? 0);
  const chars = all.slice(0, period(all));
  const text = String.fromCodePoint(...chars);
  const perChar = ALPHABETS.find(([, re]) => re.test(text))?.[0] ?? 7;
  let bits = 0;
  let step: number | undefined;
  let run = 0;
  for (let i = 0; i < chars.length; i++) {
    const d = i === 0 ? undefined : (chars[i] ?? 0) - (chars[i - 1] ?? 0);
    // "aaaaa", "abcde", "98765": from the fifth character of a run of equal steps of 0 or ±1
    // (shorter runs happen by chance in random keys: "fedc" in 1 of 70 keys of 32 hex digits).
    run = d !== undefined && Math.abs(d) <= 1 && d === step ? run + 1 : 0;
    bits += run >= 3 ? 1 : perChar;
    step = d;
  }
  return Math.floor(bits);
}

/** Every candidate secret a text holds: runs between spaces/quotes, and their parts between common separators. */
export function tokensOf(text: string): Set<string> {
  const out = new Set<string>();
  const add = (re: RegExp, s: string) => {
    for (const m of s.matchAll(re)) if (m[0].length >= MIN_TOKEN_LENGTH) out.add(m[0]);
  };
  for (const m of text.matchAll(/[^\s'"`]+/g)) {
    if (m[0].length < MIN_TOKEN_LENGTH) continue;
    out.add(m[0]);
    add(/[^=:,;()[\]{}<>\\]+/g, m[0]);
    add(/[^=:,;()[\]{}<>\\@/?&#]+/g, m[0]);
  }
  return out;
}

export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex').slice(0, 16);

/** A token as letters and digits in lower case: the published key upper-cased or with "!" added is the same. */
const folded = (token: string): string => token.toLowerCase().replace(/[^0-9a-z]/g, '');
/** The list's entry for a folded token (marked, so that it never equals a token's own hash). */
const foldedHash = (folded: string): string => hashToken(`~${folded}`);

/**
 * Whether `secret` is, or holds, a token of the repository: itself, or any part of 12 or more
 * letters and digits of it in any case (the published key upper-cased, with "!" appended, or
 * inside a longer value).
 */
export function publishedIn(secret: string, published: Set<string>): boolean {
  if (secret.length >= MIN_TOKEN_LENGTH && published.has(hashToken(secret))) return true;
  const f = folded(secret);
  for (let start = 0; start + MIN_TOKEN_LENGTH <= f.length; start++) {
    for (let end = start + MIN_TOKEN_LENGTH; end <= f.length; end++) {
      if (published.has(foldedHash(f.slice(start, end)))) return true;
    }
  }
  return false;
}

/** Folders that are not the repository's own files (installed packages, builds, data, results). */
const SKIP = new Set(['node_modules', '.git', 'dist', 'data', 'test-results', 'playwright-report', '.vite']);

/** The repository's files: git's list where git knows it, else every file outside SKIP. */
function repositoryFiles(root: string): string[] {
  const git = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  if (git.status === 0 && git.stdout) return git.stdout.split('\0').filter(Boolean);
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (SKIP.has(e.name)) continue;
      const path = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path);
      else if (e.isFile()) out.push(path);
    }
  };
  walk('');
  return out;
}

/** The hashes of every token in the repository at `root` (text files up to 5 MB). */
export function scanRepository(root: string): Set<string> {
  const hashes = new Set<string>();
  for (const file of repositoryFiles(root)) {
    const full = join(root, file);
    try {
      if (!statSync(full).isFile() || statSync(full).size > 5_000_000) continue;
      const text = readFileSync(full, 'utf8');
      if (text.includes('\u0000')) continue; // binary
      for (const t of tokensOf(text)) {
        hashes.add(hashToken(t));
        const f = folded(t);
        if (f.length >= MIN_TOKEN_LENGTH) hashes.add(foldedHash(f));
      }
    } catch {
      // unreadable: not part of what anyone can read either
    }
  }
  return hashes;
}

/** The built list (scripts/build.mjs writes it with writePublishedList). */
export const PUBLISHED_LIST = fileURLToPath(new URL('../../dist/published-secrets.txt', import.meta.url));
const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url));

export function readPublishedList(file: string): Set<string> | undefined {
  if (!existsSync(file)) return undefined;
  return new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean));
}

let cached: Set<string> | null | undefined;

/**
 * The published tokens' hashes: the built list and, where the repository is present, a scan of
 * it (once per process). null when there is neither.
 */
export function publishedSecretHashes(): Set<string> | null {
  if (cached !== undefined) return cached;
  const built = readPublishedList(PUBLISHED_LIST);
  const inRepo = existsSync(join(REPOSITORY, 'package-lock.json')) ? scanRepository(REPOSITORY) : undefined;
  cached = built || inRepo ? new Set([...(built ?? []), ...(inRepo ?? [])]) : null;
  return cached;
}

/** Writes the list of the repository's token hashes (sorted, one a line); returns how many. */
export function writePublishedList(root: string, file: string = PUBLISHED_LIST): number {
  const hashes = [...scanRepository(root)].sort();
  writeFileSync(file, `${hashes.join('\n')}\n`);
  return hashes.length;
}
