import type { WeightDtypeV1 } from '../backend/v1/backend-v1.js';
import { resolveHeadTensors } from '../internal/resolve-head-tensors.js';
import { expectedTensorShapes, type DecoderConfig } from './decoder-config.js';
import type { DecoderModel } from './decoder-model.js';
import { quantizable, type QuantizedFormatV1 } from './quantized-tensor.js';

/** One matrix to hold quantized: its format and `[rows, columns]` shape. */
export interface PlannedQuantization {
  format: QuantizedFormatV1;
  rows: number;
  columns: number;
}

/** Which tensors a model holds quantized under a dtype, and which fell back from q4 to q8. */
export interface QuantizationPlan {
  tensors: ReadonlyMap<string, PlannedQuantization>;
  /** Matrices held as q8 under `q4`, because their rows are not whole blocks of 32 weights. */
  fellBackToQ8: readonly string[];
  /** Whether the embedding table is among them (it is not when a head reads it: a tied `lm` head). */
  embedding: boolean;
}

/**
 * The tensors a model holds as `dtype` (`q8`, `q4`, `bf16`, `fp16`; none for `fp32`): every
 * projection of every layer, and the embedding table unless a head reads it. Norms and heads stay
 * float32 (they are small, and a PRM's score is read through its head). Under `q4` a matrix
 * whose rows are not whole blocks of 32 is held as q8. Loaders quantizing as they read and
 * backends quantizing float32 weights follow the same plan, so that both give the same model.
 */
export function quantizationPlan(config: DecoderConfig, dtype: WeightDtypeV1): QuantizationPlan {
  const tensors = new Map<string, PlannedQuantization>();
  if (dtype === 'fp32') return { tensors, fellBackToQ8: [], embedding: false };
  const readByHeads = new Set<string>();
  for (const head of config.heads) {
    resolveHeadTensors(config, head, (name) => {
      readByHeads.add(name);
      return name;
    });
  }
  const fellBackToQ8: string[] = [];
  for (const [name, shape] of expectedTensorShapes(config)) {
    const projection = name.startsWith('model.layers.') && name.endsWith('_proj.weight');
    const embedding = name === 'model.embed_tokens.weight' && !readByHeads.has(name);
    if (shape.length !== 2 || !(projection || embedding)) continue;
    const [rows, columns] = shape as [number, number];
    const format: QuantizedFormatV1 = quantizable(dtype, columns) ? dtype : 'q8';
    if (format !== dtype) fellBackToQ8.push(name);
    tensors.set(name, { format, rows, columns });
  }
  return { tensors, fellBackToQ8, embedding: tensors.has('model.embed_tokens.weight') };
}

/**
 * The format a model's quantized tensors are held in (a loader's `dtype`), the most compact when
 * there are several (a q4 model holds some q8 matrices); undefined when it holds none.
 */
export function heldFormat(model: Pick<DecoderModel, 'quantized'>): QuantizedFormatV1 | undefined {
  const formats = new Set([...(model.quantized?.values() ?? [])].map((tensor) => tensor.format));
  return (['q4', 'q8', 'fp16', 'bf16'] as const).find((format) => formats.has(format));
}
