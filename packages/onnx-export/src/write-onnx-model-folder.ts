import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DecoderModel, HeadSpec } from '@reward-lens/spec';
import { decoderConfigToHf, onnxGraphFileName, onnxReadPositionsFileName, type DecoderConfigToHfOptions } from '@reward-lens/loaders';
import { assertFitsOneMessage, buildDecoderModelProto, type OnnxExportOptions } from './export-decoder-to-onnx.js';
import { newExportShared } from './decoder/decoder-graph-context.js';
import { initializerByteLength, layOutExternalData, pointToExternalData } from './external-data.js';
import { decodeModelProto, encodeModelProto, type OnnxTypes } from './graph/onnx.js';
import { writeChunks } from './write-chunks.js';
import { headOutputNames, presentKeyName } from './onnx-names.js';

export const ONNX_MODEL_FILE = 'model.onnx';
export const ONNX_DATA_FILE = 'model.onnx_data';
/** The graph with read positions (see `OnnxExportOptions.readPositions`), beside `model.onnx`. */
export const ONNX_READ_POSITIONS_FILE = 'model_read_positions.onnx';
/** Where the hub layout keeps the graphs, under the model folder. */
export const ONNX_SUBFOLDER = 'onnx';

/** Weights above this many bytes go to `model.onnx_data`, well below protobuf's 2 GiB message cap. */
export const DEFAULT_EXTERNAL_DATA_THRESHOLD_BYTES = 100 * 1024 * 1024;

export interface OnnxModelFolderContents {
  model: DecoderModel;
  /** Export options (the graph is built here), or a graph `exportDecoderToOnnx` already serialized. */
  onnx: OnnxExportOptions | Uint8Array;
  tokenizerJson?: unknown;
  tokenizerConfig?: unknown;
  /** Total weight bytes above which weights go to `model.onnx_data`. Default 100 MiB; 0 always; Infinity never. */
  externalDataThresholdBytes?: number;
  /** Tensors smaller than this stay inside `model.onnx` when weights go external. Default 1 KiB. */
  externalTensorThresholdBytes?: number;
  /** Passed to `decoderConfigToHf` for `config.json` (architectures, BOS and EOS ids). */
  hfConfig?: DecoderConfigToHfOptions;
  /**
   * `hub` (default): the Hugging Face hub layout that transformers.js and Optimum read:
   * `config.json`, `generation_config.json` and the tokenizer at the root, the graphs in `onnx/`.
   * `flat`: everything at the root.
   */
  layout?: 'hub' | 'flat';
  /**
   * With export options: also write the graph with read positions, `model_read_positions.onnx`,
   * beside `model.onnx` (sharing `model.onnx_data` when the weights are external); reward-lens
   * runs it, other tools run `model.onnx`. Default true.
   */
  readPositionsGraph?: boolean;
  /** `generation_config.json`; default: the BOS and EOS ids of `hfConfig`, when it gives them. */
  generationConfig?: Record<string, unknown>;
}

export interface OnnxModelFolderResult {
  /** The files written, as paths inside the folder (`onnx/model.onnx`, `config.json`). */
  files: string[];
  externalData: boolean;
}

/**
 * Writes an ONNX model folder, by default in the Hugging Face hub layout: `onnx/model.onnx` (the
 * standard graph, with `onnx/model.onnx_data` when the weights are large) and
 * `onnx/model_read_positions.onnx` (the heads computed only where they are read, which
 * reward-lens runs), then at the root `config.json` (the Hugging Face config, plus a `reward_lens`
 * block naming the heads, their outputs and the read-positions graph), `generation_config.json`
 * and the tokenizer files when given. transformers.js loads the same folder.
 *
 * @example
 * await writeOnnxModelFolder('out/prm-onnx', { model, onnx: { withPast: true }, tokenizerJson });
 */
export async function writeOnnxModelFolder(folder: string, contents: OnnxModelFolderContents): Promise<OnnxModelFolderResult> {
  const fromOptions = !(contents.onnx instanceof Uint8Array);
  // The two graphs share one quantization and one repacking (and so the external data's bytes).
  const shared = newExportShared();
  const proto =
    contents.onnx instanceof Uint8Array
      ? decodeModelProto(contents.onnx)
      : buildDecoderModelProto(contents.model, { ...contents.onnx, readPositions: false }, shared);
  const readProto =
    fromOptions && contents.readPositionsGraph !== false
      ? buildDecoderModelProto(contents.model, { ...(contents.onnx as OnnxExportOptions), readPositions: true }, shared)
      : undefined;
  const threshold = contents.externalDataThresholdBytes ?? DEFAULT_EXTERNAL_DATA_THRESHOLD_BYTES;
  const externalData = initializerByteLength(proto) > threshold;
  const graphFolder = contents.layout === 'flat' ? '' : `${ONNX_SUBFOLDER}/`;
  // A quantized graph takes the hub's name for its dtype (model_q4.onnx, model_quantized.onnx), as transformers.js looks for it.
  const dtype = fromOptions ? ((contents.onnx as OnnxExportOptions).dtype ?? 'fp32') : 'fp32';
  const modelFile = onnxGraphFileName(dtype);
  const dataFile = dtype === 'fp32' ? ONNX_DATA_FILE : `${modelFile}_data`;
  const readFile = onnxReadPositionsFileName(dtype);
  await mkdir(join(folder, graphFolder), { recursive: true });
  const files = [`${graphFolder}${modelFile}`];
  const write = async (name: string, bytes: Uint8Array | string) => {
    await writeFile(join(folder, name), bytes);
    if (!files.includes(name)) files.push(name);
  };
  if (externalData) {
    const layout = layOutExternalData(proto, dataFile, contents.externalTensorThresholdBytes);
    await writeChunks(join(folder, graphFolder, dataFile), layout.chunks);
    await write(`${graphFolder}${modelFile}`, encodeModelProto(layout.proto));
    files.push(`${graphFolder}${dataFile}`);
    if (readProto) await write(`${graphFolder}${readFile}`, encodeModelProto(pointToExternalData(readProto, dataFile, layout.placements)));
  } else {
    // A stale data file from an earlier, larger export must not sit beside a self-contained model.
    assertFitsOneMessage(proto);
    await rm(join(folder, graphFolder, dataFile), { force: true });
    await write(`${graphFolder}${modelFile}`, encodeModelProto(proto));
    if (readProto) await write(`${graphFolder}${readFile}`, encodeModelProto(readProto));
  }
  if (!readProto) await rm(join(folder, graphFolder, readFile), { force: true });

  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const rewardLens = {
    ...rewardLensBlock(contents.model, proto),
    ...(readProto ? { onnx_read_positions_graph: `${graphFolder}${readFile}` } : {}),
    ...(dtype !== 'fp32' ? { onnx_dtype: dtype } : {}),
  };
  const hfConfig: Record<string, unknown> = { ...decoderConfigToHf(contents.model.config, contents.hfConfig), reward_lens: rewardLens };
  // transformers.js loads model.onnx_data only when the config says the weights are external.
  if (externalData) hfConfig['transformers.js_config'] = { use_external_data_format: true };
  await write('config.json', json(hfConfig));
  const generationConfig = contents.generationConfig ?? defaultGenerationConfig(contents.hfConfig);
  if (generationConfig !== undefined) await write('generation_config.json', json(generationConfig));
  if (contents.tokenizerJson !== undefined) await write('tokenizer.json', json(contents.tokenizerJson));
  if (contents.tokenizerConfig !== undefined && contents.tokenizerConfig !== null) await write('tokenizer_config.json', json(contents.tokenizerConfig));
  return { files, externalData };
}

/** BOS and EOS from the config, when it gives them: where generation stops. */
function defaultGenerationConfig(hfConfig: DecoderConfigToHfOptions | undefined): Record<string, unknown> | undefined {
  if (hfConfig?.bosTokenId === undefined && hfConfig?.eosTokenId === undefined) return undefined;
  return {
    ...(hfConfig.bosTokenId !== undefined ? { bos_token_id: hfConfig.bosTokenId } : {}),
    ...(hfConfig.eosTokenId !== undefined ? { eos_token_id: hfConfig.eosTokenId } : {}),
  };
}

/** What `config.json` cannot say: which heads the graph computes and under which output names. */
function rewardLensBlock(model: DecoderModel, proto: OnnxTypes.IModelProto): Record<string, unknown> {
  const outputs = new Set((proto.graph?.output ?? []).map((output) => output.name ?? ''));
  const recorded = proto.metadataProps?.find((entry) => entry.key === 'reward_lens.heads')?.value;
  const heads = recorded ? (JSON.parse(recorded) as HeadSpec[]) : model.config.heads;
  const names = headOutputNames(heads);
  return {
    onnx_heads: heads.filter((head) => outputs.has(names.get(head.name)!)).map((head) => ({ ...head, output: names.get(head.name) })),
    onnx_with_past: outputs.has(presentKeyName(0)),
    onnx_hidden_states: outputs.has('hidden_states.0'),
  };
}
