import { mkdir, open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decoderConfigToHf, type DecoderConfigToHfOptions, type DecoderModel, type HeadSpec } from '@reward-lens/core';
import { assertFitsOneMessage, buildDecoderModelProto, type OnnxExportOptions } from './export-decoder-to-onnx.js';
import { initializerByteLength, layOutExternalData } from './external-data.js';
import { decodeModelProto, encodeModelProto, type OnnxTypes } from './graph/onnx.js';
import { headOutputNames, presentKeyName } from './onnx-names.js';

export const ONNX_MODEL_FILE = 'model.onnx';
export const ONNX_DATA_FILE = 'model.onnx_data';

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
}

export interface OnnxModelFolderResult {
  /** The files written, as names inside the folder. */
  files: string[];
  externalData: boolean;
}

/**
 * Writes an ONNX model folder: `model.onnx` (with `model.onnx_data` when the weights are large),
 * `config.json` (the Hugging Face config, plus a `reward_lens` block naming the heads and their
 * outputs, which backend-onnx-node reads), and the tokenizer files when given.
 *
 * @example
 * await writeOnnxModelFolder('out/prm-onnx', { model, onnx: { withPast: true }, tokenizerJson });
 */
export async function writeOnnxModelFolder(folder: string, contents: OnnxModelFolderContents): Promise<OnnxModelFolderResult> {
  const proto = contents.onnx instanceof Uint8Array ? decodeModelProto(contents.onnx) : buildDecoderModelProto(contents.model, contents.onnx);
  const threshold = contents.externalDataThresholdBytes ?? DEFAULT_EXTERNAL_DATA_THRESHOLD_BYTES;
  const externalData = initializerByteLength(proto) > threshold;
  await mkdir(folder, { recursive: true });
  const files = [ONNX_MODEL_FILE];
  if (externalData) {
    const layout = layOutExternalData(proto, ONNX_DATA_FILE, contents.externalTensorThresholdBytes);
    await writeChunks(join(folder, ONNX_DATA_FILE), layout.chunks);
    await writeFile(join(folder, ONNX_MODEL_FILE), encodeModelProto(layout.proto));
    files.push(ONNX_DATA_FILE);
  } else {
    // A stale data file from an earlier, larger export must not sit beside a self-contained model.
    assertFitsOneMessage(proto);
    await rm(join(folder, ONNX_DATA_FILE), { force: true });
    await writeFile(join(folder, ONNX_MODEL_FILE), encodeModelProto(proto));
  }

  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const hfConfig = { ...decoderConfigToHf(contents.model.config, contents.hfConfig), reward_lens: rewardLensBlock(contents.model, proto) };
  await writeFile(join(folder, 'config.json'), json(hfConfig));
  files.push('config.json');
  if (contents.tokenizerJson !== undefined) {
    await writeFile(join(folder, 'tokenizer.json'), json(contents.tokenizerJson));
    files.push('tokenizer.json');
  }
  if (contents.tokenizerConfig !== undefined && contents.tokenizerConfig !== null) {
    await writeFile(join(folder, 'tokenizer_config.json'), json(contents.tokenizerConfig));
    files.push('tokenizer_config.json');
  }
  return { files, externalData };
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

async function writeChunks(path: string, chunks: readonly { offset: number; bytes: Uint8Array }[]): Promise<void> {
  const handle = await open(path, 'w');
  try {
    for (const chunk of chunks) await handle.write(chunk.bytes, 0, chunk.bytes.byteLength, chunk.offset);
  } finally {
    await handle.close();
  }
}
