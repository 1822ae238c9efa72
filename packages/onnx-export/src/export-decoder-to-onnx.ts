import { InvalidInputError, validateDecoderModel, type DecoderModel, type HeadSpec, type QuantizedTensorV1 } from '@reward-lens/spec';
import { quantizationPlan, quantizeTensor } from '@reward-lens/spec/internal';
import { MICROSOFT_DOMAIN } from './decoder/matmul-nbits.js';
import { attentionBiasNodes, rotaryInputNodes } from './decoder/attention-inputs.js';
import { toFloat16Model } from './graph/float16-model.js';
import { newExportShared, requireTensor, type DecoderGraphContext, type ExportShared } from './decoder/decoder-graph-context.js';
import { decoderLayerNodes } from './decoder/decoder-layer-nodes.js';
import { headNodes } from './decoder/head-nodes.js';
import { initializerByteLength } from './external-data.js';
import { GraphBuilder } from './graph/graph-builder.js';
import { DataType, encodeModelProto, type OnnxTypes } from './graph/onnx.js';
import {
  dynamicAxes,
  headOutputNames,
  hiddenStatesName,
  onnxInputNames,
  pastKeyName,
  pastValueName,
  presentKeyName,
  presentValueName,
  readAxis,
  readOutputName,
  readPositionsName,
} from './onnx-names.js';

export interface OnnxExportOptions {
  /** Add `past_key_values.*` inputs and `present.*` outputs (KV-cache prefix scoring). */
  withPast: boolean;
  /** Names of the heads to export; default every head of the config. */
  heads?: string[];
  /** Add `hidden_states.{k}` outputs for k = 0 (embeddings) .. numLayers (residual stream, before the final norm). */
  hiddenStates?: boolean;
  /**
   * Apply each head only at positions given per run: per head output `X` (`logits`,
   * `scores.value`), an input `read_positions.X` `[batch, reads]` (per row, the columns to read)
   * and an output `read.X` `[batch, reads, width]`, instead of `X` at every position. onnxruntime
   * runs every node of a graph whatever is fetched, so this is what makes the work follow what is
   * read (a vocabulary-wide LM head at a few step tags instead of every token). Tools that do not
   * know these inputs (transformers.js, Optimum) cannot run such a graph: `writeOnnxModelFolder`
   * writes it beside the standard one.
   */
  readPositions?: boolean;
  /** The only opset written (and the one onnxruntime-web runs everywhere). */
  opset?: 17;
  /**
   * How the projection matrices are written (default `'fp32'`): `'q8'` or `'q4'` writes each as
   * onnxruntime's `MatMulNBits` (8 or 4 bits, blocks of 32; quantized here from float32 tensors,
   * or taken as they are from a model a loader quantized), which onnxruntime runs on CPU, WASM
   * and WebGPU; the embedding table and the heads stay float32. Runs on onnxruntime only.
   * `'fp16'` writes the whole graph in float16, as the hub's `model_fp16.onnx` (`toFloat16Model`):
   * in memory only (`exportDecoderToOnnx`), not by `writeOnnxModelFolder`.
   */
  dtype?: 'fp32' | 'fp16' | 'q8' | 'q4';
}

/** The ONNX IR version written: 8, what opset 17 needs and every onnxruntime since 1.14 reads. */
export const ONNX_IR_VERSION = 8;
export const ONNX_OPSET = 17;

/**
 * The decoder as an ONNX `ModelProto` object (weights as initializers, referencing the model's
 * arrays or transposed copies), before serialization. `writeOnnxModelFolder` moves its weights
 * to external data; `exportDecoderToOnnx` serializes it whole.
 */
export function buildDecoderModelProto(model: DecoderModel, options: OnnxExportOptions, shared: ExportShared = newExportShared()): OnnxTypes.IModelProto {
  try {
    validateDecoderModel(model, 'the model to export', { quantized: true });
  } catch (error) {
    throw new InvalidInputError((error as Error).message, { cause: error });
  }
  if (options.dtype === 'fp16') throw new InvalidInputError("dtype 'fp16' graphs are written whole, in memory (exportDecoderToOnnx), not streamed to files");
  shared.quantized ??= quantizedProjections(model, options.dtype ?? 'fp32');
  const quantized = shared.quantized;
  if (new Uint8Array(Uint16Array.of(1).buffer)[0] !== 1)
    throw new InvalidInputError('ONNX raw tensor data is little-endian; exporting on a big-endian host is not supported');
  if (options.opset !== undefined && options.opset !== ONNX_OPSET)
    throw new InvalidInputError(`opset ${String(options.opset)} is not supported (only ${ONNX_OPSET})`);
  const { config } = model;
  const heads = selectHeads(config.heads, options.heads);
  if (heads.length === 0 && !options.hiddenStates)
    throw new InvalidInputError('the graph would have no outputs: export at least one head or the hidden states');

  const builder = new GraphBuilder();
  const context: DecoderGraphContext = { builder, config, tensors: model.tensors, quantized, held: model.quantized ?? new Map(), shared };
  const { batch, sequence, past, total } = dynamicAxes;
  const kvShape = (length: string) => [batch, config.numKvHeads, length, config.headDim];
  builder.input(onnxInputNames.inputIds, DataType.INT64, [batch, sequence]);
  builder.input(onnxInputNames.attentionMask, DataType.INT64, [batch, options.withPast ? total : sequence]);
  builder.input(onnxInputNames.positionIds, DataType.INT64, [batch, sequence]);
  const outputNames = headOutputNames(heads);
  const readPositions = options.readPositions === true;
  if (readPositions) {
    for (const head of heads) builder.input(readPositionsName(outputNames.get(head.name)!), DataType.INT64, [batch, readAxis(outputNames.get(head.name)!)]);
  }
  if (options.withPast) {
    for (let layer = 0; layer < config.numLayers; layer++) {
      builder.input(pastKeyName(layer), DataType.FLOAT, kvShape(past));
      builder.input(pastValueName(layer), DataType.FLOAT, kvShape(past));
    }
  }

  const embeddingTable = builder.floatInitializer(
    'model.embed_tokens.weight',
    [config.vocabSize, config.hiddenSize],
    requireTensor(context, 'model.embed_tokens.weight'),
  );
  let hidden = builder.node('Gather', [embeddingTable, onnxInputNames.inputIds], {
    scope: '/model/embed_tokens',
    attributes: { axis: 0 },
    output: hiddenStatesName(0),
  });
  const rotary = rotaryInputNodes(context);
  const attentionBias = attentionBiasNodes(context);
  for (let layer = 0; layer < config.numLayers; layer++) {
    hidden = decoderLayerNodes(context, layer, { hidden, rotary, attentionBias, withPast: options.withPast, output: hiddenStatesName(layer + 1) });
  }

  const width = (head: HeadSpec) => (head.kind === 'lm' ? config.vocabSize : head.kind === 'value' ? 1 : head.numLabels);
  if (heads.length > 0 && !readPositions) {
    for (const head of heads) {
      const output = headNodes(context, head, hidden, embeddingTable, outputNames.get(head.name)!);
      builder.output(output, DataType.FLOAT, [batch, sequence, width(head)]);
    }
  }
  // onnxruntime runs every node of a graph whatever the fetched outputs, so a head applied at
  // every position costs its full MatMul on every run: here each head has its own positions, and
  // the final norm and the head run on the residual stream at those columns only.
  for (const head of readPositions ? heads : []) {
    const name = outputNames.get(head.name)!;
    const positions = readPositionsName(name);
    const scope = `/read_positions/${head.name}`;
    const gathered = gatherReadRows(builder, hidden, config.hiddenSize, positions, scope);
    const output = headNodes(context, head, gathered, embeddingTable, readOutputName(name));
    builder.output(output, DataType.FLOAT, [batch, readAxis(name), width(head)]);
  }
  if (options.hiddenStates) {
    for (let layer = 0; layer <= config.numLayers; layer++) builder.output(hiddenStatesName(layer), DataType.FLOAT, [batch, sequence, config.hiddenSize]);
  }
  if (options.withPast) {
    for (let layer = 0; layer < config.numLayers; layer++) {
      builder.output(presentKeyName(layer), DataType.FLOAT, kvShape(total));
      builder.output(presentValueName(layer), DataType.FLOAT, kvShape(total));
    }
  }

  return {
    irVersion: ONNX_IR_VERSION,
    opsetImport: [{ domain: '', version: ONNX_OPSET }, ...(quantized.size > 0 ? [{ domain: MICROSOFT_DOMAIN, version: 1 }] : [])],
    producerName: 'reward-lens',
    producerVersion: '0.1.0',
    docString: `${config.architecture} decoder exported by @reward-lens/onnx-export`,
    graph: builder.graph(`${config.architecture}_decoder`),
    metadataProps: [
      { key: 'reward_lens.architecture', value: config.architecture },
      { key: 'reward_lens.heads', value: JSON.stringify(heads) },
      { key: 'reward_lens.config', value: JSON.stringify({ ...config, heads }) },
    ],
  };
}

/**
 * Serializes a decoder as an ONNX model (IR 8, opset 17, weights as initializers) in the input
 * and output layout of Hugging Face Optimum's decoder exports (see `onnx-names.ts`). Standard
 * operators only, so onnxruntime-node and onnxruntime-web both run it. Protobuf caps one
 * message at 2 GiB: larger models go through `writeOnnxModelFolder`, which writes external data.
 *
 * @example
 * const bytes = exportDecoderToOnnx(createRandomDecoder({ seed: 1 }), { withPast: true, hiddenStates: true });
 * const session = await InferenceSession.create(bytes);
 */
export function exportDecoderToOnnx(model: DecoderModel, options: OnnxExportOptions): Uint8Array {
  const proto =
    options.dtype === 'fp16' ? toFloat16Model(buildDecoderModelProto(model, { ...options, dtype: 'fp32' })) : buildDecoderModelProto(model, options);
  assertFitsOneMessage(proto);
  return encodeModelProto(proto);
}

/** Protobuf cannot hold one message over 2 GiB: such weights must go to external data. */
export function assertFitsOneMessage(proto: OnnxTypes.IModelProto): void {
  const bytes = initializerByteLength(proto);
  if (bytes >= 2 ** 31 - 64 * 1024 * 1024) {
    throw new InvalidInputError(
      `the weights take ${(bytes / 2 ** 30).toFixed(2)} GiB, more than one protobuf message holds (2 GiB); write the model with writeOnnxModelFolder, which puts the weights in model.onnx_data`,
    );
  }
}

/**
 * `hidden[row, read_positions[row, k]]` as `[batch, reads, hidden]`, with plain Gather over the
 * flattened `[batch * sequence, hidden]` rows (row offsets added to the positions), so that
 * every runtime that runs the rest of the graph runs this too.
 */
function gatherReadRows(builder: GraphBuilder, hidden: string, hiddenSize: number, positions: string, scope: string): string {
  const zero = builder.int64Constant([0], []);
  const one = builder.int64Constant([1], []);
  const inputShape = builder.node('Shape', [onnxInputNames.inputIds], { scope });
  const batchSize = builder.node('Gather', [inputShape, zero], { scope, attributes: { axis: 0 } });
  const sequenceLength = builder.node('Gather', [inputShape, one], { scope, attributes: { axis: 0 } });
  const rowStarts = builder.node('Mul', [builder.node('Range', [zero, batchSize, one], { scope }), sequenceLength], { scope });
  const flatPositions = builder.node('Add', [positions, builder.node('Unsqueeze', [rowStarts, builder.int64Constant([1])], { scope })], {
    scope,
  });
  const rows = builder.node('Reshape', [hidden, builder.int64Constant([-1, hiddenSize])], { scope });
  // Indices [batch, reads] pick rows of [batch * sequence, hidden]: the result is [batch, reads, hidden].
  return builder.node('Gather', [rows, flatPositions], { scope, attributes: { axis: 0 } });
}

/**
 * The projections written as `MatMulNBits`: under q8 or q4, those of `quantizationPlan` (the
 * embedding table aside: Gather reads it in float32), quantized here unless the model holds them
 * so already. A model holding tensors in another format (bf16, fp16) is refused.
 */
function quantizedProjections(model: DecoderModel, dtype: 'fp32' | 'q8' | 'q4'): Map<string, QuantizedTensorV1> {
  const given = model.quantized ?? new Map<string, QuantizedTensorV1>();
  for (const [name, tensor] of given) {
    if (tensor.format !== 'q8' && tensor.format !== 'q4') {
      throw new InvalidInputError(
        `tensor "${name}" is held as ${tensor.format}; the export writes float32, q8 and q4 weights (load the model with dtype 'fp32', 'q8' or 'q4')`,
      );
    }
  }
  const quantized = new Map([...given].filter(([name]) => name !== 'model.embed_tokens.weight'));
  if (dtype === 'fp32') {
    if (quantized.size > 0)
      throw new InvalidInputError(`the model holds ${quantized.size} tensors quantized: export it with dtype 'q8' or 'q4', or load it with dtype 'fp32'`);
    return quantized;
  }
  for (const [name, { format, rows, columns }] of quantizationPlan(model.config, dtype).tensors) {
    if (name === 'model.embed_tokens.weight' || quantized.has(name)) continue;
    quantized.set(name, quantizeTensor(model.tensors.get(name)!, format, rows, columns));
  }
  return quantized;
}

function selectHeads(heads: readonly HeadSpec[], names: readonly string[] | undefined): HeadSpec[] {
  if (names === undefined) return [...heads];
  return names.map((name) => {
    const head = heads.find((candidate) => candidate.name === name);
    if (!head) throw new InvalidInputError(`no head named "${name}" (heads: ${heads.map((candidate) => candidate.name).join(', ') || 'none'})`);
    return head;
  });
}
