import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The module specifiers a built JavaScript file loads: static and dynamic `import`, `export ... from`,
 * and `require(...)` calls (bundlers' `__require` too), read from its syntax tree, so that names in
 * strings and comments do not count and `this.require(...)` is not a `require`.
 */
export function loadedSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression;
      const loads = callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && (callee.text === 'require' || callee.text === '__require'));
      if (loads) found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * What an installed package's entry loads at run time: every file reached from `entries` through
 * relative specifiers, and each bare specifier (a package, a `node:` module, a `#` import) with
 * the files, relative to `root`, that load it.
 */
export function reachableImports(root: string, entries: readonly string[]): { files: string[]; bare: Map<string, string[]> } {
  const files = new Set<string>();
  const bare = new Map<string, string[]>();
  const pending = entries.map((entry) => resolve(root, entry));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    if (!existsSync(file)) throw new Error(`${relative(root, file)} is loaded but not in the package`);
    files.add(file);
    for (const specifier of loadedSpecifiers(file)) {
      if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier));
      else bare.set(specifier, [...(bare.get(specifier) ?? []), relative(root, file)]);
    }
  }
  return { files: [...files].map((file) => relative(root, file)).sort(), bare };
}

/** Whether a bare specifier is something an installed package may load: its own dependency, a `#` import, or a Node built-in. */
export function isInstalledWith(specifier: string, dependencies: Readonly<Record<string, string>>): boolean {
  if (specifier.startsWith('#') || specifier.startsWith('node:') || builtinModules.includes(specifier)) return true;
  const name = specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
  return Object.hasOwn(dependencies, name);
}
