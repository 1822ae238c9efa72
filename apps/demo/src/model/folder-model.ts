import { ProcessRM, modelFilesFromEntries } from '@reward-lens/core';
import { backendSettings } from './backend-settings.js';
import type { DemoModel } from './demo-model.js';

/** A picked folder's files by their path inside it, and the folder's name. */
export interface PickedFolder {
  location: string;
  entries: [string, Blob][];
}

/**
 * The files of `<input type="file" webkitdirectory>` (each `webkitRelativePath` starts with the
 * picked folder's name, which is dropped), or of a plain multi-file pick (names as they are).
 */
export function pickedFolder(files: Iterable<File>): PickedFolder {
  const entries: [string, Blob][] = [];
  let location: string | undefined;
  for (const file of files) {
    const relative = file.webkitRelativePath || file.name;
    const slash = relative.indexOf('/');
    if (file.webkitRelativePath && slash > 0) {
      location ??= relative.slice(0, slash);
      entries.push([relative.slice(slash + 1), file]);
    } else {
      entries.push([relative, file]);
    }
  }
  return { location: location ?? 'picked files', entries };
}

/**
 * A model folder of the user's own, in any layout the SDK loads (safetensors, shards, an ONNX
 * graph, the tokenizer files), read in the page by `ProcessRM.fromFiles`: nothing is uploaded.
 * `recipe`: a preset name, or undefined to infer it from config.json.
 */
export function folderModel(folder: PickedFolder, recipe: string | undefined): DemoModel {
  return {
    name: `your folder "${folder.location}"${recipe ? ` read as ${recipe}` : ''}`,
    caveat: 'Scores as your model gives them, read in this page (nothing leaves the browser); EXPLORATORY until calibrated.',
    load: (backend, onProgress) =>
      ProcessRM.fromFiles(modelFilesFromEntries(folder.entries, { location: folder.location }), {
        backend,
        backendSettings: backendSettings(),
        ...(onProgress ? { onProgress } : {}),
        ...(recipe ? { recipe } : {}),
      }),
  };
}
