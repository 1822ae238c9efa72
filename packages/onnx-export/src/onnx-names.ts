import type { HeadSpec } from '@reward-lens/spec';

/**
 * The names of an exported graph's inputs and outputs, in the layout of Hugging Face Optimum's
 * decoder exports (so that tools written for those graphs read ours):
 *
 * inputs
 * - `input_ids` `[batch_size, sequence_length]` int64
 * - `attention_mask` `[batch_size, past_sequence_length + sequence_length]` int64 (1 = real token)
 * - `position_ids` `[batch_size, sequence_length]` int64
 * - with past: `past_key_values.{i}.key` / `.value` `[batch_size, kv_heads, past_sequence_length, head_dim]` float32
 *
 * outputs
 * - `logits` `[batch_size, sequence_length, vocab]`: the LM head (a second LM head: `logits.{name}`)
 * - `scores.{name}` `[batch_size, sequence_length, 1]`: a value head
 * - `class_logits.{name}` `[batch_size, sequence_length, labels]`: a token-classification head
 * - with hidden states: `hidden_states.{k}` `[batch_size, sequence_length, hidden]`, k = 0 (embeddings) .. layers
 * - with past: `present.{i}.key` / `.value` `[batch_size, kv_heads, past_sequence_length + sequence_length, head_dim]`
 *
 * with read positions (reward-lens's own layout, in place of the per-token head outputs above):
 * - per head output `X`, input `read_positions.X` `[batch_size, read_length.X]` int64: per row, the columns to read
 * - output `read.X` `[batch_size, read_length.X, width]`: the head at those columns only
 */
export const onnxInputNames = {
  inputIds: 'input_ids',
  attentionMask: 'attention_mask',
  positionIds: 'position_ids',
} as const;

/** The input giving the columns a head is read at, in a graph with read positions: `read_positions.logits`. */
export function readPositionsName(headOutput: string): string {
  return `read_positions.${headOutput}`;
}

/** The output computing a head only at its read positions: `read.logits`, `read.scores.value`. */
export function readOutputName(headOutput: string): string {
  return `read.${headOutput}`;
}

/** The dynamic axis of a head's read positions. */
export function readAxis(headOutput: string): string {
  return `read_length.${headOutput}`;
}

export function pastKeyName(layer: number): string {
  return `past_key_values.${layer}.key`;
}

export function pastValueName(layer: number): string {
  return `past_key_values.${layer}.value`;
}

export function presentKeyName(layer: number): string {
  return `present.${layer}.key`;
}

export function presentValueName(layer: number): string {
  return `present.${layer}.value`;
}

export function hiddenStatesName(layer: number): string {
  return `hidden_states.${layer}`;
}

/**
 * The output name of each head, in config order. The first LM head is `logits`, as in every
 * causal-LM export; the name of any other head carries the head's name.
 */
export function headOutputNames(heads: readonly HeadSpec[]): Map<string, string> {
  const names = new Map<string, string>();
  let sawLm = false;
  for (const head of heads) {
    if (head.kind === 'lm') {
      names.set(head.name, sawLm ? `logits.${head.name}` : 'logits');
      sawLm = true;
    } else {
      names.set(head.name, `${head.kind === 'value' ? 'scores' : 'class_logits'}.${head.name}`);
    }
  }
  return names;
}

/** The symbolic (dynamic) axes. */
export const dynamicAxes = {
  batch: 'batch_size',
  sequence: 'sequence_length',
  past: 'past_sequence_length',
  total: 'past_sequence_length + sequence_length',
} as const;
