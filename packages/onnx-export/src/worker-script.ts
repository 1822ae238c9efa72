import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * Where one of this package's worker files is (`name` without extension). Built, it is
 * `<name>.js` (or `.cjs`) beside the calling module, whose `import.meta.url` is `here`; run from
 * source (TypeScript, in this repository), `<name>.ts` through tsx.
 */
export function workerScript(here: string, name: string): { url: URL; execArgv?: string[] } {
  const extension = here.slice(here.lastIndexOf('.'));
  if (extension !== '.ts') return { url: new URL(`./${name}${extension}`, here) };
  const tsx = createRequire(here)
    .resolve('tsx/esm/api')
    .replace(/index\.cjs$/, 'index.mjs');
  const source = new URL(`./${name}.ts`, here).href;
  const code = `import { register } from ${JSON.stringify(pathToFileURL(tsx).href)}; register(); await import(${JSON.stringify(source)});`;
  return { url: new URL(`data:text/javascript,${encodeURIComponent(code)}`), execArgv: ['--conditions=@reward-lens/source'] };
}
