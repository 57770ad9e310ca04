import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Lang } from './steps.js';

type Tree = { [key: string]: string | Tree };
const trees = new Map<Lang, Tree>();

/**
 * The app's own text of a message key (packages/web/src/i18n/<lang>/*.json), so that a test
 * checks that a message is said with its words without copying them. Up to the first
 * interpolation (`{{…}}`), when it has one.
 */
export function i18nText(lang: Lang, key: string): string {
  let tree = trees.get(lang);
  if (!tree) {
    const dir = resolve(import.meta.dirname, `../packages/web/src/i18n/${lang}`);
    tree = {};
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      merge(tree, JSON.parse(readFileSync(resolve(dir, file), 'utf8')) as Tree);
    }
    trees.set(lang, tree);
  }
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no text for ${key} (${lang})`);
  return node.split('{{')[0] as string;
}

function merge(into: Tree, from: Tree): void {
  for (const [k, v] of Object.entries(from)) {
    const have = into[k];
    if (typeof v === 'object' && typeof have === 'object') merge(have, v);
    else into[k] = v;
  }
}
