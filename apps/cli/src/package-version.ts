import { createRequire } from 'node:module';

/**
 * The CLI's version, read from its package.json at run time. Both `src/` and the built `dist/`
 * sit one folder below it, so the same relative path serves the source run and the published one.
 */
export function packageVersion(): string {
  const require = createRequire(import.meta.url);
  const packageJson = require('../package.json') as { version?: unknown };
  return typeof packageJson.version === 'string' ? packageJson.version : 'unknown';
}
