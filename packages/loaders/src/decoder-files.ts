import {
  ModelLoadError,
  expectedTensorShapes,
  type HeadSpec,
  type DecoderModel,
  type QuantizedFormatV1,
  type QuantizedTensorV1,
  type WeightDtypeV1,
} from '@reward-lens/spec';
import { quantizationPlan, quantizedBytes, quantizedTensorIn, quantizeInto } from '@reward-lens/spec/internal';

import { collectDecoderTensors, decoderTensorName, type TensorSource } from './decoder-tensors.js';
import { decoderConfigFromHf, type DecoderConfigFromHfOptions } from './hf-config.js';
import { missingFileError, readJsonFile, requireEntry, type ModelFiles } from './model-files.js';
import type { SafetensorsTensor } from './safetensors.js';
import { readTokenizerFiles } from './tokenizer-files.js';
import { readSafetensorsFrom, type SafetensorsFile, type TensorAllocator } from './safetensors-reader.js';

/* Browser-safe: a Hugging Face decoder folder read through `ModelFiles` (disk, picked files, memory). */

export interface DecoderFolder {
  model: DecoderModel;
  tokenizerJson: unknown;
  tokenizerConfig: unknown | null;
  notes: string[];
}

export interface DecoderFilesOptions extends DecoderConfigFromHfOptions {
  heads: HeadSpec[];
  /**
   * Where each tensor is read to (default: a new `Float32Array` each): a weight arena
   * (`createWeightArena` of `@reward-lens/spec/internal`) puts them where backend-tiny runs them,
   * so that they are held once, never copied, and loading peaks at the weights plus one chunk.
   */
  allocate?: TensorAllocator;
  /**
   * Hold the weights as this dtype: other than `'fp32'` (the default), the matrices
   * `quantizationPlan` names are rounded (`bf16`, `fp16`) or quantized (`q8`, `q4`) as they are
   * read, a piece of rows at a time, into `model.quantized`: loading peaks at the held weights
   * plus one chunk, never a float32 tensor. For backends that hold the dtype.
   */
  dtype?: WeightDtypeV1;
  /** Where each quantized tensor's bytes go (default: a buffer of its own): a weight arena's `allocateBytes`. */
  allocateBytes?: (byteLength: number) => Uint8Array | undefined;
  /**
   * Quantizes the pieces of rows elsewhere (other threads, into tensors `allocateBytes` put in
   * shared memory) instead of here as they are read: see `PieceQuantizer`. Default: here.
   */
  quantizer?: PieceQuantizer;
  /**
   * Called after each tensor is read, per weights file: its bytes read so far and in all (of the
   * tensors the config uses), as transformers.js's `progress_callback` reports a download.
   */
  onProgress?: (progress: LoadProgress) => void;
  /** Checked before each tensor is read: an aborted signal stops the load with its reason, the files closed. */
  signal?: AbortSignal;
}

/**
 * Quantizes pieces of a tensor's rows as `quantizeInto` would, now or later (in other threads):
 * the load hands it each piece as it is read and, before it returns the model, waits for
 * `settle()`. A piece that cannot be quantized (a non-finite weight) rejects `settle()` with a
 * ModelLoadError naming the tensor and its file, as the load would throw it.
 */
export interface PieceQuantizer {
  /** `values` (whole rows from `firstRow`) into `tensor`; `values` is the reader's buffer, reused once this returns. */
  quantize(tensor: QuantizedTensorV1, values: Float32Array, firstRow: number, where: { tensor: string; file: string }): void;
  /** Resolves once every piece handed over is in its tensor. */
  settle(): Promise<void>;
}

/** The error for a tensor that cannot be quantized (a non-finite weight), wherever it was quantized: it names the tensor and its file. */
export function quantizeFailure(where: { tensor: string; file: string }, format: QuantizedFormatV1, error: unknown): ModelLoadError {
  return new ModelLoadError(`tensor "${where.tensor}" cannot be held as ${format}: ${error instanceof Error ? error.message : String(error)}`, {
    file: where.file,
    cause: error,
  });
}

/** How far loading one weights file has come. */
export interface LoadProgress {
  /** The file, as errors name it (`models/prm/model.safetensors`). */
  file: string;
  /** Bytes of its tensors read so far. */
  loaded: number;
  /** Bytes of the tensors the config uses in it. */
  total: number;
}

/** Weights as PyTorch pickles (not the trainer's training_args.bin or optimizer.pt). */
const pickleWeightsFile = /^(pytorch_model|model|consolidated)[\w.-]*\.(bin|pt|pth|ckpt)$/;

/**
 * Loads a Hugging Face model folder from its files: `config.json`, `model.safetensors` (or the
 * shards listed in `model.safetensors.index.json`), `tokenizer.json` and, when present,
 * `tokenizer_config.json`. Only the tensors the config uses are read. Nothing is executed:
 * PyTorch pickles are refused, not unpickled.
 *
 * @example
 * const { model, tokenizerJson } = await loadDecoderFiles(modelFilesFromEntries(picked), { heads: [{ name: 'lm', kind: 'lm' }] });
 */
export async function loadDecoderFiles(files: ModelFiles, options: DecoderFilesOptions): Promise<DecoderFolder> {
  const entries = await files.list();
  const configName = requireEntry(files, 'config.json', entries);
  // Checked before the weights are read, so that a missing tokenizer fails fast.
  requireEntry(files, 'tokenizer.json', entries);
  const configPath = files.describe(configName);
  const { config, notes } = decoderConfigFromHf(await readJsonFile(files, configName), configPath, options.heads, options);

  const { opened, weightsFile, shardOf } = await openWeightFiles(files, entries);
  try {
    // The config's sizes are checked against the files' headers before anything is allocated.
    checkLayerCount(config.numLayers, opened, configPath);
    const expected = expectedTensorShapes(config);
    const plan = quantizationPlan(config, options.dtype ?? 'fp32').tensors;
    const skipped: string[] = [];
    const sources: TensorSource[] = [];
    for (const { name: fileName, file } of opened) {
      const wanted = [...file.entries.keys()].filter((name) => {
        if (shardOf && shardOf.get(name) !== fileName) return false;
        if (decoderTensorName(name, expected) !== undefined) return true;
        skipped.push(name);
        return false;
      });
      checkShapes(wanted, file, expected);
      const tensors = new Map<string, SafetensorsTensor>();
      const quantized = new Map<string, { shape: number[]; tensor: QuantizedTensorV1 }>();
      const bytesOf = (name: string) => file.entries.get(name)!.dataOffsets[1] - file.entries.get(name)!.dataOffsets[0];
      const total = wanted.reduce((sum, name) => sum + bytesOf(name), 0);
      let loaded = 0;
      // Tensors the config does not use are never read (a tied model's lm_head can be gigabytes).
      for (const name of wanted) {
        options.signal?.throwIfAborted();
        const entry = file.entries.get(name)!;
        const planned = plan.get(decoderTensorName(name, expected)!);
        if (planned) {
          const region = options.allocateBytes?.(quantizedBytes(planned.format, planned.rows, planned.columns));
          const tensor = quantizedTensorIn(
            region ?? new Uint8Array(quantizedBytes(planned.format, planned.rows, planned.columns)),
            planned.format,
            planned.rows,
            planned.columns,
          );
          // A piece of rows at a time: the tensor is never held whole in float32.
          const quantizer = options.quantizer;
          await file.readRows(name, planned.columns, (values, firstRow) => {
            if (quantizer) {
              quantizer.quantize(tensor, values, firstRow, { tensor: name, file: file.path });
              return;
            }
            try {
              quantizeInto(tensor, values, firstRow);
            } catch (error) {
              throw quantizeFailure({ tensor: name, file: file.path }, planned.format, error);
            }
          });
          quantized.set(name, { shape: entry.shape, tensor });
        } else {
          tensors.set(name, { dtype: entry.dtype, shape: entry.shape, data: await file.read(name, options.allocate) });
        }
        loaded += bytesOf(name);
        options.onProgress?.({ file: file.path, loaded, total });
      }
      sources.push({ file: file.path, tensors, quantized });
    }
    await options.quantizer?.settle();
    const collected = collectDecoderTensors(config, sources, { weightsFile, skipped });
    const tokenizer = await readTokenizerFiles(files, entries);
    return { model: collected.model, ...tokenizer, notes: [...notes, ...collected.notes] };
  } finally {
    await Promise.all(opened.map(({ file }) => file.close()));
  }
}

interface OpenedWeights {
  /** Each safetensors file with its name in the folder (a shard index names shards that way). */
  opened: { name: string; file: SafetensorsFile }[];
  /** Names the file or index that should have listed a missing tensor. */
  weightsFile: string;
  shardOf?: Map<string, string>;
}

/** The folder's safetensors files, opened with their headers read: one file, or the shards an index lists. */
async function openWeightFiles(files: ModelFiles, entries: readonly string[]): Promise<OpenedWeights> {
  const open = async (name: string) => ({ name, file: await readSafetensorsFrom(await files.open(name)) });
  if (entries.includes('model.safetensors')) {
    return { opened: [await open('model.safetensors')], weightsFile: files.describe('model.safetensors') };
  }
  if (entries.includes('model.safetensors.index.json')) {
    const shardOf = await readShardIndex(files, 'model.safetensors.index.json');
    const opened: OpenedWeights['opened'] = [];
    try {
      for (const shard of [...new Set(shardOf.values())].sort()) {
        const current = await open(requireEntry(files, shard, entries));
        opened.push(current);
        const absent = [...shardOf].find(([name, listed]) => listed === shard && !current.file.entries.has(name));
        if (absent) {
          throw new ModelLoadError(`tensor "${absent[0]}" is not in this shard, though model.safetensors.index.json lists it here`, {
            file: current.file.path,
          });
        }
      }
    } catch (error) {
      await Promise.all(opened.map(({ file }) => file.close()));
      throw error;
    }
    return { opened, weightsFile: files.describe('model.safetensors.index.json'), shardOf };
  }
  const pickles = entries.filter((entry) => pickleWeightsFile.test(entry));
  if (pickles.length > 0) {
    throw new ModelLoadError(
      `the weights are only in PyTorch pickle files (${pickles.join(', ')}), which reward-lens does not load because unpickling can run code; ` +
        `convert them to safetensors first (in Python: from_pretrained(folder) then save_pretrained(out, safe_serialization=True))`,
      { file: files.describe(pickles[0]!) },
    );
  }
  throw missingFileError(files, 'model.safetensors', entries, ' (nor model.safetensors.index.json)');
}

/** Tensor name to shard file name, from `model.safetensors.index.json`. */
async function readShardIndex(files: ModelFiles, indexName: string): Promise<Map<string, string>> {
  const index = await readJsonFile(files, indexName);
  const indexPath = files.describe(indexName);
  const weightMap = (index as { weight_map?: unknown } | null)?.weight_map;
  if (typeof weightMap !== 'object' || weightMap === null || Array.isArray(weightMap)) {
    throw new ModelLoadError('has no "weight_map" object', { file: indexPath });
  }
  const shardOf = new Map<string, string>();
  for (const [name, shard] of Object.entries(weightMap as Record<string, unknown>)) {
    // Shards must sit in the folder itself: an index must not send the loader elsewhere.
    if (typeof shard !== 'string' || shard === '' || /[\\/]/.test(shard) || shard === '..' || shard === '.') {
      throw new ModelLoadError(`weight_map gives tensor "${name}" the shard ${JSON.stringify(shard)}, which is not a file name in this folder`, {
        file: indexPath,
      });
    }
    shardOf.set(name, shard);
  }
  return shardOf;
}

/**
 * A config that declares more layers than the weights hold is refused before per-layer tables are
 * built (`num_hidden_layers: 1000000` would otherwise take minutes and gigabytes to fail).
 */
function checkLayerCount(numLayers: number, opened: OpenedWeights['opened'], configPath: string): void {
  let stored = 0;
  for (const { file } of opened) {
    for (const name of file.entries.keys()) {
      const match = /^(?:model\.)?layers\.(\d+)\./.exec(name);
      if (match) stored = Math.max(stored, Number(match[1]) + 1);
    }
  }
  if (numLayers > stored) {
    throw new ModelLoadError(`num_hidden_layers is ${numLayers}, but the weights hold ${stored} layer(s)`, { file: configPath });
  }
}

/** Every wanted tensor's stored shape against the config's, from the header alone (nothing is allocated yet). */
function checkShapes(names: readonly string[], file: SafetensorsFile, expected: ReadonlyMap<string, number[]>): void {
  for (const name of names) {
    const shape = expected.get(decoderTensorName(name, expected)!)!;
    const stored = file.entries.get(name)!.shape;
    if (stored.length !== shape.length || stored.some((dimension, index) => dimension !== shape[index])) {
      throw new ModelLoadError(`tensor "${name}" has shape [${stored.join(', ')}], the config needs [${shape.join(', ')}]`, { file: file.path });
    }
  }
}
