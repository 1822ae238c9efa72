import type { WeightDtypeV1 } from '@reward-lens/spec';
import { readJsonFile, type ModelFiles } from './model-files.js';

/* Browser-safe: which ONNX graph of a model folder reward-lens runs. */

/** The suffix of each weight dtype's graph file, as transformers.js and the hub name them (`model_q4.onnx`). */
const graphSuffixes: Record<WeightDtypeV1, string> = { fp32: '', fp16: '_fp16', bf16: '_bf16', q8: '_quantized', q4: '_q4' };

/** The standard graph's file for a dtype: `model.onnx`, `model_fp16.onnx`, `model_quantized.onnx` (q8), `model_q4.onnx`. */
export function onnxGraphFileName(dtype: WeightDtypeV1 = 'fp32'): string {
  return `model${graphSuffixes[dtype]}.onnx`;
}

/** The read-positions graph's file for a dtype (`model_read_positions_q4.onnx`), written beside the standard one. */
export function onnxReadPositionsFileName(dtype: WeightDtypeV1 = 'fp32'): string {
  return `model_read_positions${graphSuffixes[dtype]}.onnx`;
}

/** A graph chosen from a folder, and the dtype of its weights. */
export interface ChosenOnnxGraph {
  name: string;
  dtype: WeightDtypeV1;
}

/**
 * The ONNX graph reward-lens runs from a model folder's files (its name in the folder) for the
 * weights `dtype` (as transformers.js's `dtype` picks `onnx/model_q4.onnx`), or `undefined` when it
 * has none: the graph that `config.json`'s `reward_lens.onnx_read_positions_graph` names (heads
 * computed only where they are read, written by `reward-lens export onnx`) when it is there and
 * of that dtype (`reward_lens.onnx_dtype`, fp32 when absent), else `model<suffix>.onnx`, else
 * `onnx/model<suffix>.onnx` (the hub layout). Without a dtype: the fp32 graph, else the one the
 * config names, whatever its dtype.
 */
export async function chooseOnnxGraphOf(files: ModelFiles, dtype?: WeightDtypeV1): Promise<ChosenOnnxGraph | undefined> {
  const entries = await files.list();
  const named = entries.includes('config.json') ? await graphNamedByConfig(files) : undefined;
  const standard = (wanted: WeightDtypeV1) => [onnxGraphFileName(wanted), `onnx/${onnxGraphFileName(wanted)}`].find((name) => entries.includes(name));
  if (named !== undefined && entries.includes(named.name) && (dtype === undefined ? named.dtype === 'fp32' : named.dtype === dtype)) return named;
  const file = standard(dtype ?? 'fp32');
  if (file !== undefined) return { name: file, dtype: dtype ?? 'fp32' };
  return dtype === undefined && named !== undefined && entries.includes(named.name) ? named : undefined;
}

/** `chooseOnnxGraphOf`'s graph name alone. */
export async function chooseOnnxGraph(files: ModelFiles, dtype?: WeightDtypeV1): Promise<string | undefined> {
  return (await chooseOnnxGraphOf(files, dtype))?.name;
}

const knownDtypes = new Set(Object.keys(graphSuffixes));

async function graphNamedByConfig(files: ModelFiles): Promise<ChosenOnnxGraph | undefined> {
  let config: unknown;
  try {
    config = await readJsonFile(files, 'config.json');
  } catch {
    // A broken config.json is reported by whoever reads it for the model's facts.
    return undefined;
  }
  const block = (config as { reward_lens?: { onnx_read_positions_graph?: unknown; onnx_dtype?: unknown } } | null)?.reward_lens;
  const named = block?.onnx_read_positions_graph;
  // Only a relative path inside the folder, without `..`: a config must not send the loader elsewhere.
  if (typeof named !== 'string' || named === '' || named.startsWith('/')) return undefined;
  const parts = named.split(/[\\/]/).filter((part) => part !== '' && part !== '.');
  if (parts.length === 0 || parts.includes('..')) return undefined;
  const dtype = typeof block?.onnx_dtype === 'string' && knownDtypes.has(block.onnx_dtype) ? (block.onnx_dtype as WeightDtypeV1) : 'fp32';
  return { name: parts.join('/'), dtype };
}
