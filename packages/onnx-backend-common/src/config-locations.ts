/**
 * Where the `config.json` of a model file may be, nearest first: beside the graph, then, for a
 * graph in an `onnx/` folder (the Hugging Face hub layout that transformers.js and Optimum use:
 * `config.json` and the tokenizer at the root, the graph in `onnx/model.onnx`), in the folder
 * above. Works on paths and URLs alike (query and fragment dropped).
 *
 * @example
 * configLocations('models/prm/onnx/model.onnx'); // ['models/prm/onnx/config.json', 'models/prm/config.json']
 */
export function configLocations(modelLocation: string): string[] {
  const cut = modelLocation.search(/[?#]/);
  const path = (cut === -1 ? modelLocation : modelLocation.slice(0, cut)).replace(/\\/g, '/');
  const folder = path.slice(0, path.lastIndexOf('/') + 1);
  const locations = [`${folder}config.json`];
  const parent = /(^|\/)onnx\/$/.exec(folder);
  if (parent) locations.push(`${folder.slice(0, folder.length - 'onnx/'.length)}config.json`);
  return locations;
}
