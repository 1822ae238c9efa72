import { ModelLoadError } from '../errors/model-load-error.js';

/*
 * What `#pretrained-folder` resolves to where the `node` condition does not apply (a browser
 * bundle, a worker): reading a model folder by its path needs node:fs, so importing this module
 * fails with a typed error that says what to do instead. `ProcessRM.fromPretrained` imports it
 * lazily, so a bundle that never calls it never evaluates it.
 */
throw new ModelLoadError(
  "ProcessRM.fromPretrained reads a model folder from disk, which needs Node; in a browser, build the PRM from the folder's files with ProcessRM.fromFiles (files a user picked, or fetched bytes)",
);
