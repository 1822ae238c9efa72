import {
  Capability,
  InvalidInputError,
  ModelLoadError,
  validateDecoderModel,
  type BackendV1,
  type Capabilities,
  type DecoderModel,
  type WeightDtypeV1,
} from '@reward-lens/spec';
import { inspectGraphLayout, type GraphLayout, type ValueDescription } from './graph-layout.js';
import { readoutWeightsOf } from './linear-readout.js';
import { mergeConfigs, type OnnxModelConfig } from './onnx-model-config.js';
import type { OrtModule, OrtSession, OrtValueMetadata } from './ort-module.js';
import { OrtBackend } from './ort-backend.js';
import { resolveModelInfo, type ResolvedModel } from './resolve-model-info.js';
import { DEFAULT_MAX_RUN_BYTES } from './row-groups.js';

/** The options every ONNX backend shares; runtime packages add their own (threads, execution providers). */
export interface OnnxBackendOptions {
  /** Model facts the graph does not show; over the `config.json` beside a model file. A `DecoderConfig` fits. */
  config?: OnnxModelConfig;
  /**
   * The decoder weights the graph was exported from. Supplies the config, and the final norm and
   * head weights that LINEAR_READOUT applies in JavaScript to inner layers' hidden states.
   */
  decoder?: DecoderModel;
  /**
   * In place of `decoder`, where the weights were read elsewhere (a worker thread that exported
   * them and ended): their config and the heads' tensors, as `FolderGraph` from onnx-export gives them.
   */
  exportedHead?: ExportedHead;
  /**
   * Move each row's tokens to this side before the run. Default: run the batch as the request pads
   * it; graphs from `@reward-lens/onnx-export` are exact either way. Some third-party exports
   * derive positions from the mask and need left padding.
   */
  padding?: 'left' | 'right';
  /** Added to `info.notes`: what the user should know of how the weights were read (a loader's notes). */
  notes?: readonly string[];
  /** Appended to `info.description`: where the graph came from (the registrations note in-memory exports). */
  sourceNote?: string;
  /**
   * The most bytes one onnxruntime run is estimated to hold (attention is materialized, so a
   * batch of long rows costs rows × heads × length² floats); a batch above it runs in groups of
   * rows, shortest together, with the same results. Default 256 MiB: memory stays bounded by the
   * longest single row, whatever the stream.
   */
  maxRunBytes?: number;
  /** How errors name the model (default: its path, or `<in-memory ONNX model>` for bytes). */
  file?: string;
  /** How the graph holds its weights (`model_q4.onnx`, an in-memory export at q4): `info.weightDtype`, said in the notes. Default fp32. */
  weightDtype?: WeightDtypeV1;
}

/** What a runtime package hands to `createOrtBackend`. */
export interface OrtBackendSettings<SessionOptions extends object = object> extends OnnxBackendOptions {
  /** The backend's registry name (`onnx-node`, `onnx-web`): `BackendV1.name`. */
  name: string;
  /** The onnxruntime module that creates the session and the feed tensors. */
  ort: OrtModule<SessionOptions>;
  /** Passed to `InferenceSession.create` as they are. */
  sessionOptions?: SessionOptions;
  /** The `config.json` beside the model, read by the runtime package (`parseOnnxConfigJson`); under `decoder` and `config`. */
  configFromFile?: OnnxModelConfig;
  /** Appended to `info.description` after `sourceNote`: how the runtime runs it (`wasm execution provider`). */
  runtimeNote?: string;
  /** Appended to the model's own description, before `sourceNote`: the CPU threads it runs on (`threads=4 (onnxruntime intra-op)`). */
  threadNote?: string;
}

/** What a backend needs of weights read elsewhere: their config and the heads' tensors (see `readoutWeightsOf`). */
export interface ExportedHead {
  config: DecoderModel['config'];
  headTensors: ReadonlyMap<string, Float32Array>;
}

const IN_MEMORY = '<in-memory ONNX model>';

/**
 * A backend over an ONNX decoder in the layout of Hugging Face Optimum's exports and of
 * `@reward-lens/onnx-export`, on the injected onnxruntime module. Capabilities follow from the
 * graph: per-token heads give SCORES, PREFIX_SCORES and STEP_SCORES; `past_key_values.*` inputs
 * with `present.*` outputs give the KV cache; `hidden_states.*` outputs at every layer give
 * ACTIVATIONS (and LINEAR_READOUT when `decoder` supplies the head weights). A graph of any other
 * layout, or one onnxruntime cannot load, is a ModelLoadError.
 *
 * @example
 * import * as ort from 'onnxruntime-web';
 * const backend = await createOrtBackend(bytes, { name: 'onnx-web', ort, config });
 */
export async function createOrtBackend<SessionOptions extends object>(
  model: string | Uint8Array,
  settings: OrtBackendSettings<SessionOptions>,
): Promise<BackendV1> {
  const file = settings.file ?? (typeof model === 'string' ? model : IN_MEMORY);
  if (settings.decoder) validateDecoderModel(settings.decoder, 'options.decoder', { quantized: true });
  const weights =
    settings.decoder ?? (settings.exportedHead ? { config: settings.exportedHead.config, tensors: settings.exportedHead.headTensors } : undefined);
  const config = mergeConfigs(mergeConfigs(settings.configFromFile ?? {}, weights?.config), settings.config);

  let session: OrtSession;
  try {
    const { InferenceSession } = settings.ort;
    session =
      typeof model === 'string' ? await InferenceSession.create(model, settings.sessionOptions) : await InferenceSession.create(model, settings.sessionOptions);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelLoadError(`onnxruntime cannot load it (${reason.trim()})`, { file, cause: error });
  }

  try {
    const layout = inspectGraphLayout(describeValues(session.inputMetadata), describeValues(session.outputMetadata), file);
    const resolved = resolveModelInfo(layout, config, file);
    if (settings.threadNote) resolved.info.description += ` ${settings.threadNote}`;
    for (const note of [settings.sourceNote, settings.runtimeNote]) if (note) resolved.info.description += `, ${note}`;
    const kvShape = layout.pastLayers > 0 ? kvShapeOf(layout, config, file) : undefined;
    const readout = weights ? readoutWeightsOf(weights) : undefined;
    const readoutCoversHeads = readout !== undefined && [...resolved.heads.values()].every((head) => readout.heads.get(head.name)?.width === head.width);
    const capabilities = capabilitiesOf(layout, resolved, readoutCoversHeads);
    const attentionHeads =
      config.numHeads ?? (config.headDim !== undefined ? Math.ceil(resolved.info.hiddenSize / config.headDim) : Math.ceil(resolved.info.hiddenSize / 64));
    const maxRunBytes = settings.maxRunBytes ?? DEFAULT_MAX_RUN_BYTES;
    if (!(maxRunBytes > 0)) throw new InvalidInputError(`must be a positive number of bytes, got ${maxRunBytes}`, { location: 'options.maxRunBytes' });
    const state = {
      session,
      Tensor: settings.ort.Tensor,
      layout,
      heads: resolved.heads,
      kvShape,
      readout,
      padding: settings.padding,
      attentionHeads,
      maxRunBytes,
    };
    // A float16 graph (the hub's model_fp16.onnx) holds and computes in half precision, whatever it was named.
    const half = layout.floatType === 'float16';
    const dtype = half ? 'fp16' : (settings.weightDtype ?? 'fp32');
    const held =
      dtype === 'fp32'
        ? []
        : half
          ? [
              `backend "${settings.name}" runs a float16 graph (weights, activations and cache in half precision; operators onnxruntime has no float16 kernel for run through casts it inserts): scores differ from the fp32 model's`,
            ]
          : [`backend "${settings.name}" runs a graph with ${dtype} projection weights (onnxruntime's MatMulNBits): scores differ from the fp32 model's`];
    const notes = [...(resolved.info.notes ?? []), ...(settings.notes ?? []), ...held];
    const info = { ...resolved.info, ...(dtype === 'fp32' ? {} : { weightDtype: dtype }), ...(notes.length > 0 ? { notes } : {}) };
    return new OrtBackend(settings.name, state, info, capabilities, layout.hasPresent, half ? 'fp16' : 'fp32');
  } catch (error) {
    await session.release();
    throw error;
  }
}

function describeValues(metadata: readonly OrtValueMetadata[]): ValueDescription[] {
  return metadata.map((value) => ({ name: value.name, type: value.isTensor ? value.type : undefined, shape: value.isTensor ? value.shape : [] }));
}

function capabilitiesOf(layout: GraphLayout, resolved: ResolvedModel, hasReadoutWeights: boolean): Capabilities {
  let capabilities = 0;
  if (resolved.heads.size > 0) capabilities |= Capability.SCORES | Capability.PREFIX_SCORES | Capability.STEP_SCORES;
  const { numLayers } = resolved.info;
  const everyLayer = Array.from({ length: numLayers + 1 }, (_, layer) => layout.hiddenLayers.includes(layer)).every(Boolean);
  if (everyLayer) capabilities |= Capability.ACTIVATIONS;
  if (everyLayer && hasReadoutWeights && resolved.heads.size > 0) capabilities |= Capability.LINEAR_READOUT;
  return capabilities;
}

function kvShapeOf(layout: GraphLayout, config: OnnxModelConfig, file: string) {
  const kvHeads = layout.kvHeads ?? config.numKvHeads;
  const headDim = layout.headDim ?? config.headDim;
  if (kvHeads === undefined || headDim === undefined) {
    throw new ModelLoadError('the past_key_values inputs leave the key/value heads or the head size dynamic; pass options.config.numKvHeads and headDim', {
      file,
    });
  }
  return { layers: layout.pastLayers, kvHeads, headDim, floatType: layout.floatType };
}
