import { type ModelFileContents, type ModelFiles, modelFilesFromEntries } from '@reward-lens/loaders';
import { loadPretrainedFiles, type LoadedPretrained, type PretrainedOptions } from './load-pretrained.js';

/** What `ProcessRM.fromFiles` reads: any `ModelFiles`, or relative paths to bytes or Blobs. */
export type PretrainedFiles = ModelFiles | Readonly<Record<string, ModelFileContents>> | Iterable<readonly [string, ModelFileContents]>;

function isModelFiles(files: PretrainedFiles): files is ModelFiles {
  const candidate = files as Partial<ModelFiles>;
  return typeof candidate.open === 'function' && typeof candidate.list === 'function' && typeof candidate.describe === 'function';
}

/** `ProcessRM.fromFiles`' loading: the entries made into `ModelFiles`, then the loader `fromPretrained` uses. */
export function loadFromFiles(files: PretrainedFiles, options: PretrainedOptions): Promise<LoadedPretrained> {
  return loadPretrainedFiles(isModelFiles(files) ? files : modelFilesFromEntries(files), options);
}
