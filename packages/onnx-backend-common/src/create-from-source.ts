import {
  isDecoderFolderSource,
  isDecoderSource,
  isOnnxSource,
  unsupportedSourceReason,
  type BackendCreateOptions,
  type BackendV1,
  type DecoderFolderSource,
  type DecoderModel,
  type ModelSource,
  type WeightDtypeV1,
} from '@reward-lens/spec';
import { heldFormat } from '@reward-lens/spec/internal';
import type { ExportedHead, OnnxBackendOptions } from './create-ort-backend.js';
import { inMemoryGraphOptions } from './in-memory-graph.js';

/**
 * The weight dtypes an ONNX backend holds: a graph of them (`model_fp16.onnx`, `model_q4.onnx`),
 * or decoder weights exported so (MatMulNBits for q8 and q4; fp16 in memory only, up to the
 * in-memory limit).
 */
export const ortBackendDtypes: readonly WeightDtypeV1[] = ['fp32', 'fp16', 'q8', 'q4'];

/** How decoder weights are exported for an ONNX backend: with the cache, hidden states and read positions, at a dtype. */
export interface DecoderExportOptions {
  withPast: boolean;
  hiddenStates: boolean;
  readPositions: boolean;
  dtype: 'fp32' | 'fp16' | 'q8' | 'q4';
}

/** A graph written to files for a session to load: the graph's path, and how to remove the files once it is loaded. */
export interface ExportedGraphFiles {
  graph: string;
  remove(): Promise<void>;
}

/** A weights folder exported to files by a thread that has ended: the graph, and what the backend needs of the weights. */
export interface ExportedFolderFiles extends ExportedGraphFiles, ExportedHead {
  /** The loader's notes. */
  notes: string[];
}

/** What a registration hands `createOrtBackendFromSource`: its name, its factory, and the exporter (imported only when weights are exported). */
export interface OrtSourceFactory<Options extends OnnxBackendOptions> {
  name: string;
  create(model: string | Uint8Array, options: Options): Promise<BackendV1>;
  exporter(): Promise<(model: DecoderModel, options: DecoderExportOptions) => Uint8Array>;
  /**
   * Where the runtime reads files (Node): weights too large for one protobuf message (2 GiB) are
   * written with external data to a temporary folder, loaded from there, and the folder removed.
   */
  exportToFiles?(): Promise<(model: DecoderModel, options: DecoderExportOptions) => Promise<ExportedGraphFiles>>;
  /**
   * Where the runtime reads files (Node): a weights folder on disk (`DecoderFolderSource`) read
   * and exported in a worker thread, so this process holds the weights only as the runtime loads them.
   */
  exportFolderToFiles?(): Promise<(source: DecoderFolderSource, options: DecoderExportOptions) => Promise<ExportedFolderFiles>>;
  /** Weight bytes above which `exportToFiles` is used. Default 1.75 GiB (below protobuf's 2 GiB, with room for the graph). */
  inMemoryLimitBytes?: number;
}

const defaultInMemoryLimitBytes = 1.75 * 2 ** 30;

/** The bytes of a model's tensors as held (float32 tensors 4 a value, reduced ones their own bytes): about what an export writes. */
export function decoderWeightBytes(model: DecoderModel): number {
  let bytes = 0;
  for (const [name, tensor] of model.tensors) if (!model.quantized?.has(name)) bytes += tensor.byteLength;
  for (const tensor of model.quantized?.values() ?? []) bytes += tensor.bytes.byteLength;
  return bytes;
}

/**
 * An ONNX backend for a source, as both ONNX registrations create one: a graph (from its path,
 * or from its bytes with the config.json text it came with) holding the asked dtype, or decoder
 * weights exported in memory first (at the asked dtype, or that of the tensors a loader
 * quantized), with the cache, the hidden states and LINEAR_READOUT from the weights.
 */
export async function createOrtBackendFromSource<Options extends OnnxBackendOptions>(
  factory: OrtSourceFactory<Options>,
  source: ModelSource,
  options: BackendCreateOptions,
  settings: Options,
): Promise<BackendV1> {
  const { name } = factory;
  if (isOnnxSource(source)) {
    const held = source.weightDtype ?? 'fp32';
    if (options.dtype !== undefined && options.dtype !== held) throw new Error(`the graph holds ${held} weights, not ${options.dtype}`);
    const graphSettings = held === 'fp32' ? settings : { ...settings, weightDtype: held };
    return source.bytes ? factory.create(source.bytes, inMemoryGraphOptions(source, graphSettings)) : factory.create(source.path, graphSettings);
  }
  if (isDecoderFolderSource(source) && factory.exportFolderToFiles) return createFromFolder(factory, factory.exportFolderToFiles, source, options, settings);
  if (!isDecoderSource(source)) throw new Error(unsupportedSourceReason(name, source, ortSourceKinds(factory)));
  const dtype = exportDtype(name, options.dtype, source.model);
  const exportOptions: DecoderExportOptions = { withPast: true, hiddenStates: true, readPositions: true, dtype };
  const reduced = reducedPhrase(dtype);
  const common = { ...settings, decoder: source.model, ...(dtype === 'fp32' ? {} : { weightDtype: dtype }) };
  const overLimit = decoderWeightBytes(source.model) > (factory.inMemoryLimitBytes ?? defaultInMemoryLimitBytes);
  if (dtype === 'fp16' && overLimit) throw new Error(fp16OverLimit(name));
  if (factory.exportToFiles && overLimit) {
    const files = await (await factory.exportToFiles())(source.model, exportOptions);
    try {
      // At 7B (q4): 123 s and 8.8 GB to load this way, 7 s and 4.4 GB from a folder exported once.
      const note = `exported to ONNX with external data in a temporary folder (removed once loaded: the weights are over protobuf's 2 GiB) from decoder weights${reduced}; ${exportOnceAdvice(dtype)}, in less memory`;
      return await factory.create(files.graph, { ...common, sourceNote: note });
    } finally {
      await files.remove();
    }
  }
  const graph = (await factory.exporter())(source.model, exportOptions);
  return factory.create(graph, { ...common, sourceNote: `exported to ONNX in memory from decoder weights${reduced}` });
}

/** The source kinds a factory runs: graphs and decoder weights, and weights folders where it can export them in a thread. */
export function ortSourceKinds(factory: Pick<OrtSourceFactory<OnnxBackendOptions>, 'exportFolderToFiles'>): string[] {
  return factory.exportFolderToFiles ? ['onnx', 'decoder', 'decoder-folder'] : ['onnx', 'decoder'];
}

/** A weights folder read and exported to a temporary graph in a thread, then loaded from disk and the files removed. */
async function createFromFolder<Options extends OnnxBackendOptions>(
  factory: OrtSourceFactory<Options>,
  exportFolderToFiles: NonNullable<OrtSourceFactory<Options>['exportFolderToFiles']>,
  source: DecoderFolderSource,
  options: BackendCreateOptions,
  settings: Options,
): Promise<BackendV1> {
  // Nothing is held yet, so nothing to infer from: the dtype asked for, or the folder's as core read the request.
  const dtype = exportDtype(factory.name, options.dtype ?? source.dtype, {});
  if (dtype === 'fp16') throw new Error(fp16OverLimit(factory.name));
  const files = await (await exportFolderToFiles())(source, { withPast: true, hiddenStates: true, readPositions: true, dtype });
  try {
    const note = `exported to ONNX with external data in a temporary folder (removed once loaded) by a thread that read ${source.description}${reducedPhrase(dtype)} and ended; ${exportOnceAdvice(dtype)}`;
    return await factory.create(files.graph, {
      ...settings,
      exportedHead: { config: files.config, headTensors: files.headTensors },
      ...(dtype === 'fp32' ? {} : { weightDtype: dtype }),
      ...(files.notes.length > 0 ? { notes: [...(settings.notes ?? []), ...files.notes] } : {}),
      sourceNote: note,
    });
  } finally {
    await files.remove();
  }
}

/** How an exported graph holds reduced weights, for its note: ` (q4, MatMulNBits)`; nothing at fp32. */
function reducedPhrase(dtype: DecoderExportOptions['dtype']): string {
  return dtype === 'fp32' ? '' : dtype === 'fp16' ? ' (fp16, the whole graph)' : ` (${dtype}, MatMulNBits)`;
}

/** The advice every note of an export through files ends with. */
function exportOnceAdvice(dtype: DecoderExportOptions['dtype']): string {
  return `a folder exported once (reward-lens export onnx${dtype === 'fp32' ? '' : ` --dtype ${dtype}`}) loads faster`;
}

/** Why fp16 weights are not exported through files: a float16 graph is written whole, in memory. */
function fp16OverLimit(name: string): string {
  return `${name} runs float16 graphs (a folder's onnx/model_fp16.onnx) and exports decoder weights at fp16 only in memory, under protobuf's 2 GiB: these are read as a folder or over that; ask for fp32, q8 or q4, or run fp16 weights on backend tiny or webgpu`;
}

/** The dtype an in-memory export writes: the one asked for, else that of the tensors a loader quantized. */
function exportDtype(name: string, asked: WeightDtypeV1 | undefined, model: Pick<DecoderModel, 'quantized'>): DecoderExportOptions['dtype'] {
  if (asked === 'q8' || asked === 'q4' || asked === 'fp32' || asked === 'fp16') return asked;
  if (asked !== undefined) throw new Error(`${name} holds ${ortBackendDtypes.join(', ')} weights, not ${asked}`);
  // 16-bit tensors a loader held are widened: a float16 graph is asked for by name.
  const held = heldFormat(model);
  return held === 'q4' || held === 'q8' ? held : 'fp32';
}
