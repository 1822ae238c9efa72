import { defineConfig, type Options } from 'tsup';

/**
 * The build every published package shares: ESM and CommonJS, each with its types and source
 * maps, for ES2022, our own packages left as imports (each is installed once, beside the others).
 * A package with several entries splits shared chunks in CommonJS too, so that all its entries
 * use one copy of each module (one class for `instanceof`, one registry), as in ESM.
 */
export function rewardLensBuild(entry: Record<string, string>, options: Omit<Options, 'entry'> = {}) {
  const { external = [], ...rest } = options;
  return defineConfig({
    entry,
    format: ['esm', 'cjs'],
    splitting: Object.keys(entry).length > 1,
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    external: [/^@reward-lens\//, ...external],
    ...rest,
  });
}
