/// <reference types="node" />
// Node's file system reads the sources (the domain's own types are the browser's and the server's common part).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = dirname(fileURLToPath(import.meta.url));

/** The domain modules (not tests) and the modules each imports, types included. */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
  );
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = readFileSync(join(root, file), 'utf8');
    const deps = [...source.matchAll(/^(?:import|export)[^;]*?from '(\.{1,2}\/[^']+)\.js';/gms)].map((m) =>
      relative(root, resolve(root, dirname(file), `${m[1]}.ts`)),
    );
    graph.set(file, deps);
  }
  return graph;
}

/** The first import cycle found, as the chain of modules; null when there is none. */
function findCycle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const dep of graph.get(node) ?? []) {
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

describe('domain modules', () => {
  it('import each other without a cycle (values.ts, kinds.ts, conditions.ts <- fields.ts <- form.ts)', () => {
    const graph = importGraph();
    expect(graph.get('fields.ts')).toEqual(
      expect.arrayContaining(['values.ts', 'kinds.ts', 'conditions.ts']),
    );
    expect(graph.get('form.ts')).toContain('fields.ts');
    expect(findCycle(graph)).toBeNull();
  });

  it('the cycle check finds a cycle', () => {
    const graph = new Map([
      ['form.ts', ['conditions.ts']],
      ['conditions.ts', ['form.ts']],
    ]);
    expect(findCycle(graph)).toEqual(['form.ts', 'conditions.ts', 'form.ts']);
  });
});
