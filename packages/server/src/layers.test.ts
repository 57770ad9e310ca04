import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layering of docs/architecture.md "Layers", read from the import lines of the three
 * packages' sources: static imports and re-exports (types too), side-effect imports and dynamic
 * `import('…')`. Tests and test helpers (`*.test.ts`, `src/test/`, `testing.ts`) are left out,
 * as the build leaves them out; that no built file imports one is checked too.
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const DOMAIN = 'packages/domain/src/';
const SERVER = 'packages/server/src/';
const WEB = 'packages/web/src/';
const PACKAGES = [DOMAIN, SERVER, WEB];

const isTestHelper = (file: string) =>
  /\.test\.tsx?$/.test(file) ||
  /\/testing\.tsx?$/.test(file) ||
  PACKAGES.some((p) => file.startsWith(`${p}test/`));

/** One import of a source file: the module it names (repo path) or, for a package, its name. */
interface Import {
  target: string | null;
  external: string | null;
}

const IMPORT =
  /^(?:import|export)\b[^;]*?\bfrom\s*'([^']+)'|^import\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;

/** The source file a relative import names: `./x.js` is x.ts or x.tsx, a folder its index. */
function resolveImport(file: string, spec: string): string | null {
  const base = relative(repo, resolve(repo, dirname(file), spec.replace(/\.js$/, '')));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    const path = join(repo, candidate);
    if (/\.tsx?$/.test(candidate) && existsSync(path) && statSync(path).isFile()) return candidate;
  }
  return null; // a style sheet, an image, a JSON file
}

function importsOf(file: string): Import[] {
  const source = readFileSync(join(repo, file), 'utf8');
  return [...source.matchAll(IMPORT)].flatMap((m): Import[] => {
    const spec = m[1] ?? m[2] ?? m[3] ?? '';
    if (spec.startsWith('.')) {
      const target = resolveImport(file, spec);
      return target ? [{ target, external: null }] : [];
    }
    // The web app reaches the domain through its alias (vite.config.ts), the server through the package.
    if (spec === '@ros/domain') return [{ target: `${DOMAIN}index.ts`, external: spec }];
    return [{ target: null, external: spec }];
  });
}

function sourcesOf(pkg: string): string[] {
  return readdirSync(join(repo, pkg), { recursive: true, encoding: 'utf8' })
    .map((f) => `${pkg}${f.split('\\').join('/')}`)
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts') && !isTestHelper(f));
}

const SOURCES = new Map(PACKAGES.flatMap((pkg) => sourcesOf(pkg).map((f) => [f, importsOf(f)] as const)));

/** The imports of one package's files, among them (its graph). */
function graphOf(pkg: string): Map<string, string[]> {
  return new Map(
    [...SOURCES]
      .filter(([file]) => file.startsWith(pkg))
      .map(([file, imports]) => [
        file,
        imports.flatMap((i) => (i.target?.startsWith(pkg) && i.external === null ? [i.target] : [])),
      ]),
  );
}

/** The first import circle found, as the chain of modules; null when there is none. */
function findCircle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const dep of graph.get(node) ?? []) {
      const circle = visit(dep);
      if (circle) return circle;
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const circle = visit(node);
    if (circle) return circle;
  }
  return null;
}

/** Each import of a file under `from` (a path prefix or a test) that `forbidden` refuses, as `file -> target`. */
function breaches(
  from: (file: string) => boolean,
  forbidden: (target: string, file: string) => boolean,
): string[] {
  return [...SOURCES].flatMap(([file, imports]) =>
    from(file)
      ? imports.filter((i) => i.target && forbidden(i.target, file)).map((i) => `${file} -> ${i.target}`)
      : [],
  );
}
const under = (prefix: string) => (file: string) => file.startsWith(prefix);
const packageOf = (file: string) => PACKAGES.find((p) => file.startsWith(p));

describe('import layering (docs/architecture.md "Layers")', () => {
  it('reads the sources it checks', () => {
    expect(SOURCES.get(`${SERVER}config/config.ts`)).toContainEqual({
      target: `${SERVER}nia/config.ts`,
      external: null,
    });
    expect(SOURCES.get(`${WEB}App.tsx`)?.some((i) => i.target === `${DOMAIN}index.ts`)).toBe(true);
    // A dynamic import (a lazy page) counts.
    expect(
      [...SOURCES].some(([, imports]) => imports.some((i) => i.target === `${WEB}form/FormPage.tsx`)),
    ).toBe(true);
    expect(SOURCES.has(`${SERVER}routes/intake.test.ts`)).toBe(false);
  });

  it('no import circle between the files of any package (types included)', () => {
    expect(findCircle(graphOf(SERVER))).toBeNull();
    expect(findCircle(graphOf(WEB))).toBeNull();
    expect(findCircle(graphOf(DOMAIN))).toBeNull();
  });

  it('the circle check finds a circle', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(findCircle(graph)).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts']);
  });

  it('a package reaches another only as @ros/domain; no built file imports a test helper', () => {
    expect(
      breaches(
        () => true,
        (target, file) => packageOf(target) !== packageOf(file) && target !== `${DOMAIN}index.ts`,
      ),
    ).toEqual([]);
    expect(breaches(under(SERVER), (target) => target.startsWith(WEB))).toEqual([]);
    expect(breaches(() => true, isTestHelper)).toEqual([]);
  });

  it('domain: nothing but zod and itself; its rules never import the API contract, which is made of them', () => {
    const external = [...SOURCES]
      .filter(([file]) => file.startsWith(DOMAIN))
      .flatMap(([, imports]) => imports.flatMap((i) => (i.external ? [i.external] : [])));
    expect(external.filter((e) => e !== 'zod' && !e.startsWith('zod/'))).toEqual([]);
    expect(
      breaches(
        (file) =>
          file.startsWith(DOMAIN) && !file.startsWith(`${DOMAIN}api/`) && file !== `${DOMAIN}index.ts`,
        under(`${DOMAIN}api/`),
      ),
    ).toEqual([]);
  });

  it('web: components/ and api/ import nothing else of the app; shell/ imports no page', () => {
    expect(
      breaches(under(`${WEB}components/`), (t) => t.startsWith(WEB) && !t.startsWith(`${WEB}components/`)),
    ).toEqual([]);
    expect(breaches(under(`${WEB}api/`), (t) => t.startsWith(WEB) && !t.startsWith(`${WEB}api/`))).toEqual(
      [],
    );
    const pages = ['form', 'home', 'status', 'validity', 'not-found'].map((p) => `${WEB}${p}/`);
    expect(breaches(under(`${WEB}shell/`), (t) => pages.some((p) => t.startsWith(p)))).toEqual([]);
  });

  it('server: the configuration imports nothing above it; requests/ and notifications/ nothing of mail/ or pdf/; no route another', () => {
    const configuration = [
      'config/config.ts',
      'config/readers.ts',
      'config/secrets.ts',
      'config/secretStrength.ts',
      'nia/config.ts',
      'console/config.ts',
      'console/staff.ts',
      'http/ipRanges.ts',
    ].map((f) => `${SERVER}${f}`);
    for (const file of configuration) expect(SOURCES.has(file), file).toBe(true);
    expect(
      breaches(
        (file) => configuration.includes(file),
        (target) => target.startsWith(SERVER) && !configuration.includes(target),
      ),
    ).toEqual([]);
    for (const folder of ['requests/', 'notifications/'])
      expect(
        breaches(
          under(`${SERVER}${folder}`),
          (t) => t.startsWith(`${SERVER}mail/`) || t.startsWith(`${SERVER}pdf/`),
        ),
      ).toEqual([]);
    expect(breaches(under(`${SERVER}routes/`), under(`${SERVER}routes/`))).toEqual([]);
  });
});
