import { describe, expect, it } from 'vitest';
import { ModelLoadError } from '@reward-lens/spec';
import { modelFilesFromFolder } from './pretrained-folder-unavailable.js';

describe("#pretrained-folder where Node's file system is not", () => {
  it('answers a folder path with a ModelLoadError that points to ProcessRM.fromFiles, from a function (no module side effect a bundler could drop)', async () => {
    const error = await modelFilesFromFolder('models/prm').catch((caught: unknown) => caught);
    expect(ModelLoadError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^models\/prm: ProcessRM\.fromPretrained reads a model folder from disk, which needs Node; .*ProcessRM\.fromFiles.*ProcessRM\.fromBackend/,
    );
  });
});
