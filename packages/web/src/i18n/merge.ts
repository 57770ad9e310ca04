/**
 * Translation files: every feature keeps its texts in src/i18n/{lang}/<feature>.json with
 * nested keys. The build merges all files of a language into one /assets/i18n/{lang}.json.
 * Pure functions, used by the Vite plugin and by the unit tests.
 */

export type TranslationTree = { [key: string]: TranslationValue };
export type TranslationValue = string | TranslationValue[] | TranslationTree;

export interface TranslationFile {
  /** Name used in error messages, e.g. 'cs/home.json'. */
  file: string;
  data: unknown;
}

function isTree(value: unknown): value is TranslationTree {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Deep-merges the files of one language. A key defined in two files (a text, or a text in
 * one and a group in the other) throws, naming both files, so that the build fails.
 */
export function mergeTranslationFiles(files: readonly TranslationFile[]): TranslationTree {
  const merged: TranslationTree = {};
  const owner = new Map<string, string>();

  const walk = (target: TranslationTree, source: TranslationTree, prefix: string, file: string) => {
    for (const [key, value] of Object.entries(source)) {
      const path = prefix ? `${prefix}.${key}` : key;
      const existing = target[key];
      if (isTree(value)) {
        if (existing === undefined) {
          target[key] = {};
          owner.set(path, file);
        } else if (!isTree(existing)) {
          throw new Error(`Translation key "${path}" is defined in both ${owner.get(path)} and ${file}`);
        }
        walk(target[key] as TranslationTree, value, path, file);
      } else {
        if (existing !== undefined) {
          throw new Error(`Translation key "${path}" is defined in both ${owner.get(path)} and ${file}`);
        }
        if (typeof value !== 'string' && !Array.isArray(value)) {
          throw new Error(`Translation key "${path}" in ${file} must be a text, a list or a group`);
        }
        target[key] = value;
        owner.set(path, file);
      }
    }
  };

  for (const { file, data } of files) {
    if (!isTree(data)) throw new Error(`${file} must hold a JSON object`);
    walk(merged, data, '', file);
  }
  return merged;
}

/** Every leaf of a tree as [dotted key, text]; list items get their index ('A.B.0'). */
export function flattenTranslations(tree: TranslationValue, prefix = ''): Array<[string, unknown]> {
  if (typeof tree === 'string') return [[prefix, tree]];
  const entries: Array<[string, unknown]> = [];
  const children: Array<[string, unknown]> = Array.isArray(tree)
    ? tree.map((value, index) => [String(index), value])
    : Object.entries(tree);
  for (const [key, value] of children) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string' || Array.isArray(value) || isTree(value)) {
      entries.push(...flattenTranslations(value as TranslationValue, path));
    } else {
      entries.push([path, value]);
    }
  }
  return entries;
}

/**
 * Problems between two languages' merged trees: keys missing in one of them, and texts
 * that are empty or not text. An empty list means the translations match.
 */
export function compareTranslations(
  a: { lang: string; tree: TranslationTree },
  b: { lang: string; tree: TranslationTree },
): string[] {
  const problems: string[] = [];
  const aEntries = new Map(flattenTranslations(a.tree));
  const bEntries = new Map(flattenTranslations(b.tree));
  for (const [side, entries, other] of [
    [a, aEntries, b],
    [b, bEntries, a],
  ] as const) {
    const otherEntries = other === a ? aEntries : bEntries;
    for (const [key, value] of entries) {
      if (!otherEntries.has(key)) problems.push(`"${key}" exists in ${side.lang} but not in ${other.lang}`);
      if (typeof value !== 'string' || value.trim() === '') {
        problems.push(`"${key}" in ${side.lang} is empty or not a text`);
      }
    }
  }
  return problems;
}
