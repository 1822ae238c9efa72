import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

// `@reward-lens/core/testing` is imported by third-party backend authors under vitest, node:test
// or jest: it must not import a test framework (vitest is only core's devDependency, so a
// node:test user would fail to load the kit). The built files, as installed, are checked by
// tools/package-tests; this walks the source graph, so the mistake fails core's own tests.

const sourceRoot = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(resolve(sourceRoot, '../package.json'), 'utf8')) as { dependencies?: Record<string, string> };

/** The source file a relative specifier names: `./x.js` is `./x.ts`. */
function resolveSource(from: string, specifier: string): string {
  const path = resolve(dirname(from), specifier);
  const candidates = [path, path.replace(/\.js$/, '.ts'), `${path}.ts`, resolve(path, 'index.ts')];
  const found = candidates.find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
  if (!found) throw new Error(`${relative(sourceRoot, from)}: cannot resolve ${specifier}`);
  return found;
}

/**
 * Every file reachable from `entry` through relative imports (static, dynamic and type-only: types
 * reach the .d.ts), and each bare specifier with the files that import it.
 */
function moduleGraph(entry: string): { files: Set<string>; bare: Map<string, string[]> } {
  const files = new Set<string>();
  const bare = new Map<string, string[]>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, false).importedFiles) {
      if (fileName.startsWith('.')) pending.push(resolveSource(file, fileName));
      else bare.set(fileName, [...(bare.get(fileName) ?? []), relative(sourceRoot, file)]);
    }
  }
  return { files, bare };
}

const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

it('the @reward-lens/core/testing entry imports no test framework: only core dependencies, package imports and Node built-ins', () => {
  const { files, bare } = moduleGraph(resolve(sourceRoot, 'testing/index.ts'));
  const reached = [...files].map((file) => relative(sourceRoot, file));
  expect(reached).toEqual(expect.arrayContaining(['testing/run-backend-conformance.ts', 'testing/gradient-conformance.ts', 'testing/conformance-harness.ts']));
  expect(reached.filter((file) => /\.test(-support)?\.ts$|\.fixture\.ts$/.test(file))).toEqual([]);
  const allowed = (specifier: string) =>
    specifier.startsWith('#') ||
    specifier.startsWith('node:') ||
    builtinModules.includes(specifier) ||
    Object.hasOwn(manifest.dependencies ?? {}, packageName(specifier));
  const outside = [...bare].filter(([specifier]) => !allowed(specifier)).map(([specifier, importers]) => `${specifier} (from ${importers.join(', ')})`);
  expect(outside).toEqual([]);
  expect([...bare.keys()].filter((specifier) => /^(vitest|@vitest\/|jest|@jest\/|node:test$)/.test(specifier))).toEqual([]);
});
