import { ModelLoadError } from '@reward-lens/spec';

/** What onnxruntime says about one input or output (its `inputMetadata` / `outputMetadata` entries). */
export interface ValueDescription {
  name: string;
  /** `float32`, `int64`, ...; undefined for non-tensors. */
  type: string | undefined;
  /** Fixed sizes as numbers, dynamic axes as their symbolic names; empty when unknown. */
  shape: readonly (number | string)[];
}

/** An output computed at every token: a head of the model. */
export interface HeadOutput {
  output: string;
  /** What the name says: `logits` alone is an LM head or (in token-classification exports) class logits. */
  kind: 'lm' | 'value' | 'token-classification' | 'logits';
  /** The head's name when the output name carries it (`scores.value` → `value`). */
  name: string | undefined;
  /** The last dimension when fixed. */
  width: number | undefined;
  /**
   * In a graph with read positions (`@reward-lens/onnx-export`'s `readPositions`), the input
   * giving the columns the head is computed at (`read_positions.logits` for `read.logits`).
   */
  positionsInput?: string;
  /** The per-token output name the head has in a standard graph (`logits` for `read.logits`): what config.json names. */
  perTokenOutput: string;
}

/** The parts of a decoder graph the backend knows how to feed and read. */
export interface GraphLayout {
  hasPositionIds: boolean;
  /** Layers with `past_key_values.{i}.key/value` inputs; they must be fed (empty when there is no past). */
  pastLayers: number;
  /** Also `present.{i}.key/value` outputs for every past layer: the graph can extend a cache. */
  hasPresent: boolean;
  /** `[kvHeads, headDim]` of the past inputs, when fixed. */
  kvHeads: number | undefined;
  headDim: number | undefined;
  heads: HeadOutput[];
  /** `k` of every `hidden_states.{k}` output, ascending. */
  hiddenLayers: number[];
  hiddenSize: number | undefined;
  /** How the head, hidden-state and cache values are held: float32, or float16 (a hub `model_fp16.onnx`). */
  floatType: 'float32' | 'float16';
}

const pastPattern = /^past_key_values\.(\d+)\.(key|value)$/;
const hiddenPattern = /^hidden_states\.(\d+)$/;
const readPrefix = 'read.';
const readPositionsPrefix = 'read_positions.';
const readOutputOf = (positionsInput: string) => `${readPrefix}${positionsInput.slice(readPositionsPrefix.length)}`;

/**
 * Reads a graph's inputs and outputs into a layout: Optimum's decoder layout (`input_ids`,
 * `attention_mask`, optional `position_ids` and `past_key_values.*` in; `logits`, `present.*`
 * out) plus reward-lens's per-head and hidden-state outputs. Anything else is a ModelLoadError
 * that lists the graph's inputs and outputs with their shapes.
 */
export function inspectGraphLayout(inputs: readonly ValueDescription[], outputs: readonly ValueDescription[], file: string): GraphLayout {
  const fail = (problem: string): never => {
    throw new ModelLoadError(`${problem}; this graph fits no layout the ONNX backends know.\n${describeGraph(inputs, outputs)}`, { file });
  };
  const inputNames = new Set(inputs.map((input) => input.name));
  const outputNames = new Set(outputs.map((output) => output.name));
  for (const required of ['input_ids', 'attention_mask']) if (!inputNames.has(required)) fail(`it has no "${required}" input`);
  const knownInputs = ['input_ids', 'attention_mask', 'position_ids'];
  const unknownInputs = inputs.filter(
    (input) =>
      !knownInputs.includes(input.name) &&
      !pastPattern.test(input.name) &&
      !(input.name.startsWith(readPositionsPrefix) && outputNames.has(readOutputOf(input.name))),
  );
  if (unknownInputs.length > 0) fail(`it has inputs the backend cannot feed (${unknownInputs.map((input) => input.name).join(', ')})`);

  const pastLayers = countLayers(inputs, pastPattern);
  for (let layer = 0; layer < pastLayers; layer++) {
    for (const part of ['key', 'value']) if (!inputNames.has(`past_key_values.${layer}.${part}`)) fail(`"past_key_values.${layer}.${part}" is missing`);
  }
  const hasPresent =
    pastLayers > 0 &&
    Array.from({ length: pastLayers }, (_, layer) => outputNames.has(`present.${layer}.key`) && outputNames.has(`present.${layer}.value`)).every(Boolean);
  const pastShape = inputs.find((input) => input.name === 'past_key_values.0.key')?.shape;

  const heads: HeadOutput[] = [];
  const hiddenLayers: number[] = [];
  let hiddenSize: number | undefined;
  let floatType: 'float32' | 'float16' | undefined;
  for (const output of outputs) {
    const width = lastDimension(output);
    const hidden = hiddenPattern.exec(output.name);
    // `read.X` computes head output X at the columns fed to `read_positions.X`.
    const read = output.name.startsWith(readPrefix) && inputNames.has(`${readPositionsPrefix}${output.name.slice(readPrefix.length)}`);
    const perToken = read ? output.name.slice(readPrefix.length) : output.name;
    const positions = read ? { positionsInput: `${readPositionsPrefix}${perToken}` } : {};
    const base = { output: output.name, perTokenOutput: perToken, width, ...positions };
    let head: HeadOutput | undefined;
    if (hidden) {
      hiddenLayers.push(Number(hidden[1]));
      hiddenSize ??= width;
    } else if (perToken === 'logits') head = { ...base, kind: 'logits', name: undefined };
    else if (perToken === 'scores') head = { ...base, kind: 'value', name: undefined };
    else if (perToken.startsWith('logits.')) head = { ...base, kind: 'lm', name: perToken.slice('logits.'.length) };
    else if (perToken.startsWith('scores.')) head = { ...base, kind: 'value', name: perToken.slice('scores.'.length) };
    else if (perToken.startsWith('class_logits.')) head = { ...base, kind: 'token-classification', name: perToken.slice('class_logits.'.length) };
    else continue;
    floatType ??= output.type === 'float16' ? 'float16' : 'float32';
    if (output.type !== floatType) {
      fail(
        `output "${output.name}" is ${output.type ?? 'not a tensor'}; only float32 or float16 graphs are supported, one or the other throughout (this one's first is ${floatType})`,
      );
    }
    if (head) heads.push(head);
  }
  if (heads.length === 0 && hiddenLayers.length === 0) fail('it has no head outputs (logits, scores.*, class_logits.*) and no hidden_states.* outputs');
  for (const input of inputs.filter((candidate) => pastPattern.test(candidate.name))) {
    if (input.type !== floatType) fail(`input "${input.name}" is ${input.type ?? 'not a tensor'}; the outputs are ${floatType}, and the cache must be too`);
  }
  hiddenLayers.sort((a, b) => a - b);
  return {
    hasPositionIds: inputNames.has('position_ids'),
    pastLayers,
    hasPresent,
    kvHeads: typeof pastShape?.[1] === 'number' ? pastShape[1] : undefined,
    headDim: typeof pastShape?.[3] === 'number' ? pastShape[3] : undefined,
    heads,
    hiddenLayers,
    hiddenSize,
    floatType: floatType ?? 'float32',
  };
}

/** One line per input and output: `name type [dims]`. */
export function describeGraph(inputs: readonly ValueDescription[], outputs: readonly ValueDescription[]): string {
  const line = (value: ValueDescription) => `  ${value.name} ${value.type ?? 'non-tensor'} [${value.shape.join(', ')}]`;
  return [`inputs:`, ...inputs.map(line), `outputs:`, ...outputs.map(line)].join('\n');
}

function countLayers(values: readonly ValueDescription[], pattern: RegExp): number {
  let count = 0;
  for (const value of values) {
    const match = pattern.exec(value.name);
    if (match) count = Math.max(count, Number(match[1]) + 1);
  }
  return count;
}

function lastDimension(value: ValueDescription): number | undefined {
  const last = value.shape[value.shape.length - 1];
  return typeof last === 'number' ? last : undefined;
}
