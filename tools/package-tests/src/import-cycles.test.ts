import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from './workspace.js';

// No import cycles in any package's source (type-only imports count: a cycle of types is a knot
// in the design as much as one of values), so every module can be read, tested and moved alone.

/** The published and app source files: `src` of every package and app, tests left out. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(path);
    }
  };
  for (const parent of ['packages', 'apps']) {
    for (const name of readdirSync(join(repositoryRoot, parent))) {
      const src = join(repositoryRoot, parent, name, 'src');
      if (existsSync(src)) walk(src);
    }
  }
  return files;
}

/** Each file's relative imports (static, dynamic, re-exports), resolved to files. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const base = normalize(join(dirname(file), match[1]!.replace(/\.js$/, '')));
      const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
      if (target) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan): each is an import cycle. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    order.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, order.get(next)!));
    }
    if (low.get(node) !== order.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.map((file) => relative(repositoryRoot, file)).sort());
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return found;
}

describe('import cycles', () => {
  it('finds one in a graph that has one (the check itself)', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(cycles(graph).map((cycle) => cycle.length)).toEqual([3]);
  });

  it('none in the source of any package or app', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(500);
    expect(cycles(importGraph(files))).toEqual([]);
  });
});
