import { copyFile, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ModelLoadError, type HeadSpec } from '@reward-lens/spec';
import type { DecoderConfigToHfOptions } from '@reward-lens/loaders';
import { loadDecoderFolder } from '@reward-lens/loaders/node';
import { writeOnnxModelFolder, type OnnxModelFolderResult } from './write-onnx-model-folder.js';

export interface ExportModelFolderOptions {
  /** The heads to load and export (config.json does not name them). */
  heads: HeadSpec[];
  /** Default true: `past_key_values.*` inputs and `present.*` outputs. */
  withPast?: boolean;
  /**
   * `hidden_states.{k}` outputs for every layer. Default: true when the folder has a
   * `step-detector.json` (its learned detector reads a layer's hidden states), else false.
   */
  hiddenStates?: boolean;
  /** See `writeOnnxModelFolder`. */
  externalDataThresholdBytes?: number;
  /** See `writeOnnxModelFolder`: `hub` (default, graphs in `onnx/`) or `flat`. */
  layout?: 'hub' | 'flat';
  /** See `writeOnnxModelFolder`; default true. */
  readPositionsGraph?: boolean;
  /**
   * `'q8'` or `'q4'`: the projections are quantized as the folder is read and written as
   * `MatMulNBits` (`onnx/model_quantized.onnx`, `onnx/model_q4.onnx`, the hub's names); the
   * float32 model is never held. Default `'fp32'`.
   */
  dtype?: 'fp32' | 'q8' | 'q4';
}

export interface ExportModelFolderResult extends OnnxModelFolderResult {
  /** The loader's notes (a sliding window it ignores, tensors it skipped). */
  notes: string[];
}

/** Tokenizer files copied byte for byte, when the source folder has them. */
const tokenizerFiles = [
  'tokenizer.json',
  'tokenizer_config.json',
  'special_tokens_map.json',
  'added_tokens.json',
  'vocab.json',
  'merges.txt',
  'tokenizer.model',
];

/**
 * What the exported config.json keeps of the source's: its architecture (which says how the model
 * is read as a PRM) and its BOS/EOS ids. The loader has already checked that config.json parses.
 */
async function sourceIdentity(inFolder: string): Promise<DecoderConfigToHfOptions> {
  const source = JSON.parse(await readFile(join(inFolder, 'config.json'), 'utf8')) as Record<string, unknown>;
  const identity: DecoderConfigToHfOptions = {};
  if (Array.isArray(source.architectures) && source.architectures.every((name) => typeof name === 'string'))
    identity.architectures = source.architectures as string[];
  if (typeof source.bos_token_id === 'number') identity.bosTokenId = source.bos_token_id;
  if (typeof source.eos_token_id === 'number') identity.eosTokenId = source.eos_token_id;
  return identity;
}

/** The source's `generation_config.json`, copied as it is (where generation stops), when it has one. */
async function sourceGenerationConfig(inFolder: string, present: Set<string>): Promise<Record<string, unknown> | undefined> {
  if (!present.has('generation_config.json')) return undefined;
  const path = join(inFolder, 'generation_config.json');
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new ModelLoadError(`not valid JSON (${(error as Error).message})`, { file: path, cause: error });
  }
}

/**
 * Exports a Hugging Face decoder folder (config.json, safetensors, tokenizer) as an ONNX folder in
 * the hub layout (see `writeOnnxModelFolder`): `onnx/model.onnx` and
 * `onnx/model_read_positions.onnx` (+ `onnx/model.onnx_data`), `config.json`,
 * `generation_config.json` (the source's, else its BOS and EOS), and the tokenizer files, `calibration.json` and
 * `step-detector.json` copied.
 * What `reward-lens export onnx <model-folder> <out-folder>` runs; transformers.js loads the result.
 *
 * @example
 * await exportModelFolder('models/prm', 'models/prm-onnx', { heads: [{ name: 'lm', kind: 'lm' }] });
 */
export async function exportModelFolder(inFolder: string, outFolder: string, options: ExportModelFolderOptions): Promise<ExportModelFolderResult> {
  const dtype = options.dtype ?? 'fp32';
  const { model, notes } = await loadDecoderFolder(inFolder, { heads: options.heads, ...(dtype !== 'fp32' ? { dtype } : {}) });
  const present = new Set(await readdir(inFolder));
  const generationConfig = await sourceGenerationConfig(inFolder, present);
  const result = await writeOnnxModelFolder(outFolder, {
    model,
    hfConfig: await sourceIdentity(inFolder),
    onnx: {
      withPast: options.withPast ?? true,
      hiddenStates: options.hiddenStates ?? present.has('step-detector.json'),
      ...(dtype !== 'fp32' ? { dtype } : {}),
    },
    ...(options.externalDataThresholdBytes !== undefined ? { externalDataThresholdBytes: options.externalDataThresholdBytes } : {}),
    ...(options.layout !== undefined ? { layout: options.layout } : {}),
    ...(options.readPositionsGraph !== undefined ? { readPositionsGraph: options.readPositionsGraph } : {}),
    ...(generationConfig !== undefined ? { generationConfig } : {}),
  });
  const files = [...result.files];
  // The tokenizer, and how the PRM is read beyond its weights: its calibration and learned step detector.
  for (const name of [...tokenizerFiles, 'calibration.json', 'step-detector.json']) {
    if (!present.has(name)) continue;
    await copyFile(join(inFolder, name), join(outFolder, name));
    files.push(name);
  }
  return { ...result, files, notes };
}
