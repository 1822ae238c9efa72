import type { ModelFiles } from '@reward-lens/loaders';
import { ModelLoadError } from '@reward-lens/spec';

/*
 * What `#pretrained-folder` resolves to where the `node` condition does not apply (a browser
 * bundle, a worker): reading a model folder by its path needs node:fs, so the folder reader here
 * throws a typed error that says what to do instead. An exported function rather than a throw at
 * the top of the module: core is `sideEffects: false`, and bundlers may drop a module's top-level
 * statements (Vite 8's Rolldown does), which would leave a bare TypeError.
 */
export async function modelFilesFromFolder(folder: string): Promise<ModelFiles> {
  throw new ModelLoadError(
    "ProcessRM.fromPretrained reads a model folder from disk, which needs Node; in a browser, build the PRM from the folder's files with ProcessRM.fromFiles (files a user picked, or fetched bytes), or from a backend with ProcessRM.fromBackend",
    { file: folder },
  );
}
