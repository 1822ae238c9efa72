/* Node only: the target of `#pretrained-folder` under the `node` condition. ProcessRM.fromPretrained imports it lazily, so core stays browser-safe. */

export { modelFilesFromFolder } from '@reward-lens/loaders/node';
