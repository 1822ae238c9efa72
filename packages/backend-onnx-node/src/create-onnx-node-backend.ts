import {
  Capability,
  ModelLoadError,
  validateDecoderModel,
  type BackendV1,
  type Capabilities,
  type DecoderModel,
} from '@reward-lens/core/internal';
import { InferenceSession } from 'onnxruntime-node';
import { inspectGraphLayout, type GraphLayout, type ValueDescription } from './graph-layout.js';
import { readoutWeightsOf } from './linear-readout.js';
import { mergeConfigs, readConfigBeside, type OnnxModelConfig } from './onnx-model-config.js';
import { OnnxNodeBackend } from './onnx-node-backend.js';
import { resolveModelInfo, type ResolvedModel } from './resolve-model-info.js';

export interface OnnxNodeBackendOptions {
  /** Model facts the graph does not show; over the `config.json` beside a model file. A `DecoderConfig` fits. */
  config?: OnnxModelConfig;
  /**
   * The decoder weights the graph was exported from. Supplies the config, and the final norm and
   * head weights that LINEAR_READOUT applies in JavaScript to inner layers' hidden states.
   */
  decoder?: DecoderModel;
  /** onnxruntime's intra-op threads (default: onnxruntime's choice, one per core). */
  intraOpThreads?: number;
  /**
   * Move each row's tokens to this side before the run. Default: run the batch as the request pads
   * it; graphs from `@reward-lens/onnx-export` are exact either way. Some third-party exports
   * derive positions from the mask and need left padding.
   */
  padding?: 'left' | 'right';
  /** Appended to `info.description`: where the graph came from (the registration notes in-memory exports). */
  sourceNote?: string;
  /** Passed to onnxruntime over the defaults (sequential execution, all graph optimizations). */
  sessionOptions?: InferenceSession.SessionOptions;
}

const IN_MEMORY = '<in-memory ONNX model>';

/**
 * A backend that runs an ONNX decoder on onnxruntime-node: the layout of Hugging Face Optimum's
 * exports and of `@reward-lens/onnx-export`. Capabilities follow from the graph: per-token heads
 * give SCORES, PREFIX_SCORES and STEP_SCORES; `past_key_values.*` inputs with `present.*` outputs
 * give the KV cache; `hidden_states.*` outputs at every layer give ACTIVATIONS (and LINEAR_READOUT
 * when `decoder` supplies the head weights). A graph of any other layout is a ModelLoadError.
 *
 * @example
 * const backend = await createOnnxNodeBackend('models/prm-onnx/model.onnx', { intraOpThreads: 1 });
 */
export async function createOnnxNodeBackend(model: string | Uint8Array, options: OnnxNodeBackendOptions = {}): Promise<BackendV1> {
  const file = typeof model === 'string' ? model : IN_MEMORY;
  if (options.decoder) validateDecoderModel(options.decoder, 'options.decoder');
  const fromFile = typeof model === 'string' ? await readConfigBeside(model) : {};
  const config = mergeConfigs(mergeConfigs(fromFile, options.decoder?.config), options.config);

  const sessionOptions: InferenceSession.SessionOptions = {
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    interOpNumThreads: 1,
    ...(options.intraOpThreads !== undefined ? { intraOpNumThreads: options.intraOpThreads } : {}),
    ...options.sessionOptions,
  };
  let session: InferenceSession;
  try {
    session = typeof model === 'string' ? await InferenceSession.create(model, sessionOptions) : await InferenceSession.create(model, sessionOptions);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelLoadError(`onnxruntime cannot load it (${reason.trim()})`, { file, cause: error });
  }

  try {
    const layout = inspectGraphLayout(describeValues(session.inputMetadata), describeValues(session.outputMetadata), file);
    const resolved = resolveModelInfo(layout, config, file);
    if (options.sourceNote) resolved.info.description += `, ${options.sourceNote}`;
    const kvShape = layout.pastLayers > 0 ? kvShapeOf(layout, config, file) : undefined;
    const readout = options.decoder ? readoutWeightsOf(options.decoder) : undefined;
    const readoutCoversHeads = readout !== undefined && [...resolved.heads.values()].every((head) => readout.heads.get(head.name)?.width === head.width);
    const capabilities = capabilitiesOf(layout, resolved, readoutCoversHeads);
    const state = { session, layout, heads: resolved.heads, kvShape, readout, padding: options.padding };
    return new OnnxNodeBackend(state, resolved.info, capabilities, layout.hasPresent);
  } catch (error) {
    await session.release();
    throw error;
  }
}

function describeValues(metadata: readonly InferenceSession.ValueMetadata[]): ValueDescription[] {
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
    throw new ModelLoadError('the past_key_values inputs leave the key/value heads or the head size dynamic; pass options.config.numKvHeads and headDim', { file });
  }
  return { layers: layout.pastLayers, kvHeads, headDim };
}
