import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The absolute path of a file in the shared test data (`../shared/data` beside the repository,
 * or `$REWARD_LENS_SHARED_DATA`). The data is never copied into the repository, so a missing
 * file fails the test with its name instead of skipping it.
 */
export function sharedDataPath(relative: string): string {
  const root = process.env.REWARD_LENS_SHARED_DATA ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url));
  const path = `${root.replace(/\/$/, '')}/${relative}`;
  if (!existsSync(path)) {
    throw new Error(
      `shared test data file is missing: ${path} (expected under ../shared/data relative to the repository root, or set REWARD_LENS_SHARED_DATA)`,
    );
  }
  return path;
}
