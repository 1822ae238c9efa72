import { readJsonFile, type ModelFiles } from './model-files.js';

/* Browser-safe: which ONNX graph of a model folder reward-lens runs. */

/**
 * The ONNX graph reward-lens runs from a model folder's files (its name in the folder), or
 * `undefined` when it has none: the graph that `config.json`'s
 * `reward_lens.onnx_read_positions_graph` names (heads computed only where they are read, written
 * by `reward-lens export onnx`) when it is there, else `model.onnx`, else `onnx/model.onnx` (the
 * Hugging Face hub layout, as transformers.js and Optimum write it).
 */
export async function chooseOnnxGraph(files: ModelFiles): Promise<string | undefined> {
  const entries = await files.list();
  const named = entries.includes('config.json') ? await graphNamedByConfig(files) : undefined;
  if (named !== undefined && entries.includes(named)) return named;
  if (entries.includes('model.onnx')) return 'model.onnx';
  return entries.includes('onnx/model.onnx') ? 'onnx/model.onnx' : undefined;
}

async function graphNamedByConfig(files: ModelFiles): Promise<string | undefined> {
  let config: unknown;
  try {
    config = await readJsonFile(files, 'config.json');
  } catch {
    // A broken config.json is reported by whoever reads it for the model's facts.
    return undefined;
  }
  const named = (config as { reward_lens?: { onnx_read_positions_graph?: unknown } } | null)?.reward_lens?.onnx_read_positions_graph;
  // Only a relative path inside the folder, without `..`: a config must not send the loader elsewhere.
  if (typeof named !== 'string' || named === '' || named.startsWith('/')) return undefined;
  const parts = named.split(/[\\/]/).filter((part) => part !== '' && part !== '.');
  return parts.length === 0 || parts.includes('..') ? undefined : parts.join('/');
}
