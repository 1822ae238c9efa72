import type { PackedPackage } from './build-and-pack.js';

/** Every import specifier a package's `exports` map offers (its subpaths, without `./package.json`). */
export function entrySpecifiers(entry: Pick<PackedPackage, 'name' | 'manifest'>): string[] {
  // A wildcard subpath exports files (model-default's `./model/*`: weights and JSON), not modules.
  const subpaths = Object.keys(entry.manifest.exports ?? { '.': null }).filter((subpath) => subpath !== './package.json' && !subpath.includes('*'));
  return subpaths.map((subpath) => (subpath === '.' ? entry.name : `${entry.name}/${subpath.slice(2)}`));
}

/** A module that imports every given entry (namespace imports, so every export's type is resolved). */
export function consumerModule(specifiers: readonly string[]): string {
  const lines = specifiers.map((specifier, index) => `import * as entry${index} from '${specifier}';`);
  lines.push(`export const entries = [${specifiers.map((_, index) => `entry${index}`).join(', ')}];`);
  return `${lines.join('\n')}\n`;
}

/** A tsconfig for a consumer project that checks the packages' declarations too (`skipLibCheck: false`) and includes no ambient types. */
export function strictTsconfig(files: readonly string[], lib: readonly string[]): string {
  const compilerOptions = {
    target: 'ES2022',
    lib,
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    types: [],
  };
  return `${JSON.stringify({ compilerOptions, files }, null, 2)}\n`;
}

/** A CommonJS project on TypeScript's node10 resolution (which reads no `exports`: subpaths resolve through typesVersions). */
export function node10Tsconfig(files: readonly string[]): string {
  const compilerOptions = {
    target: 'ES2022',
    lib: ['ES2022', 'DOM'],
    module: 'CommonJS',
    moduleResolution: 'node10',
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  return `${JSON.stringify({ compilerOptions, files }, null, 2)}\n`;
}
