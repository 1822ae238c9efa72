import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { requireRegularFile } from './model-file.js';

/* Node only: it looks into a model folder on disk. */

/**
 * The ONNX graph reward-lens runs from a model folder, or `undefined` when it has none: the graph
 * that `config.json`'s `reward_lens.onnx_read_positions_graph` names (heads computed only where
 * they are read, written by `reward-lens export onnx`) when it is there, else `model.onnx`, else
 * `onnx/model.onnx` (the Hugging Face hub layout, as transformers.js and Optimum write it).
 * A graph that is not a regular file (a directory, a FIFO, a link loop) is a `ModelLoadError`
 * naming it: onnxruntime would block forever on a FIFO.
 *
 * @example
 * await findOnnxGraph('models/prm-onnx'); // 'models/prm-onnx/onnx/model_read_positions.onnx'
 */
export async function findOnnxGraph(folder: string): Promise<string | undefined> {
  const found = await locateOnnxGraph(folder);
  return found === undefined ? undefined : requireRegularFile(found);
}

async function locateOnnxGraph(folder: string): Promise<string | undefined> {
  const entries = await readdir(folder).catch((): string[] => []);
  const named = entries.includes('config.json') ? await readGraphNamedByConfig(folder) : undefined;
  if (named !== undefined) return named;
  if (entries.includes('model.onnx')) return join(folder, 'model.onnx');
  if (!entries.includes('onnx')) return undefined;
  const nested = await readdir(join(folder, 'onnx')).catch((): string[] => []);
  return nested.includes('model.onnx') ? join(folder, 'onnx', 'model.onnx') : undefined;
}

async function readGraphNamedByConfig(folder: string): Promise<string | undefined> {
  let config: unknown;
  try {
    config = JSON.parse(await readFile(join(folder, 'config.json'), 'utf8'));
  } catch {
    // A broken config.json is reported by whoever reads it for the model's facts.
    return undefined;
  }
  const named = (config as { reward_lens?: { onnx_read_positions_graph?: unknown } } | null)?.reward_lens?.onnx_read_positions_graph;
  // Only a relative path inside the folder, without `..`: a config must not send the loader elsewhere.
  if (typeof named !== 'string' || named === '' || named.startsWith('/') || named.split(/[\\/]/).includes('..')) return undefined;
  const [parent, name] = named.includes('/')
    ? [join(folder, named.slice(0, named.lastIndexOf('/'))), named.slice(named.lastIndexOf('/') + 1)]
    : [folder, named];
  const present = await readdir(parent).catch((): string[] => []);
  return present.includes(name) ? join(parent, name) : undefined;
}
