import { DataType } from '../graph/onnx.js';
import { onnxInputNames } from '../onnx-names.js';
import type { DecoderGraphContext } from './decoder-graph-context.js';

/** The most negative float32: masked scores stay finite, so fully masked (padding) rows never turn NaN. */
const MASKED_SCORE = -3.4028234663852886e38;

/**
 * The additive attention bias `[batch, 1, sequence, past + sequence]` shared by every layer:
 * 0 where key `j` is visible to query `i`, the most negative float elsewhere.
 *
 * Key `j` is visible when `attention_mask` marks it real and `j <= past + i` (causal over the
 * padded layout). Because padding is masked out, this holds for padding on either side and for
 * rows whose past is shorter than the batch's (their unused past slots masked).
 */
export function attentionBiasNodes(context: DecoderGraphContext): string {
  const { builder } = context;
  const scope = '/model/attention_mask';
  const zero = builder.int64Constant([0], []);
  const one = builder.int64Constant([1], []);
  const sequenceLength = builder.node('Gather', [builder.node('Shape', [onnxInputNames.inputIds], { scope }), one], { scope, attributes: { axis: 0 } });
  const totalLength = builder.node('Gather', [builder.node('Shape', [onnxInputNames.attentionMask], { scope }), one], { scope, attributes: { axis: 0 } });
  const pastLength = builder.node('Sub', [totalLength, sequenceLength], { scope });

  const queryIndex = builder.node('Range', [zero, sequenceLength, one], { scope });
  const keyIndex = builder.node('Range', [zero, totalLength, one], { scope });
  const lastVisible = builder.node('Add', [builder.node('Unsqueeze', [queryIndex, builder.int64Constant([1])], { scope }), pastLength], { scope });
  const causal = builder.node('LessOrEqual', [builder.node('Unsqueeze', [keyIndex, builder.int64Constant([0])], { scope }), lastVisible], { scope });

  const real = builder.node('Cast', [onnxInputNames.attentionMask], { scope, attributes: { to: DataType.BOOL } });
  const realKeys = builder.node('Unsqueeze', [real, builder.int64Constant([1, 2])], { scope });
  const visible = builder.node('And', [causal, realKeys], { scope });
  return builder.node('Where', [visible, builder.floatConstant(0), builder.floatConstant(MASKED_SCORE)], { scope });
}

export interface RotaryInputs {
  /** `[batch, 1, sequence, headDim / 2]`, broadcast over heads. */
  cos: string;
  sin: string;
}

/** Positions per level of the rotary tables: a model of up to this many positions has one table, as before. */
export const ROTARY_LEVEL_SIZE = 1024;

/**
 * Cosines and sines for each token, from tables gathered by `position_ids`. A model of up to
 * `ROTARY_LEVEL_SIZE` positions has one table of every position. A longer one has a table per
 * base-1024 digit of the position (digit `d` of level `l` holds the angle of `d * 1024^l`) and
 * the angles are added in the graph (`cos(a + b) = cos a cos b - sin a sin b`), so the tables
 * grow with the number of digits, not the positions: `max_position_embeddings: 1e12` needs 4
 * small tables, not 4 TB (and Qwen2.5's 1M-position configs 2 KB per head dimension, not 4 MB).
 * Angles are computed in float64 and stored as float32, as backend-tiny does; adding two levels
 * costs about one float32 rounding more.
 */
export function rotaryInputNodes(context: DecoderGraphContext): RotaryInputs {
  const { builder, config } = context;
  const scope = '/model/rotary_emb';
  const halfDim = config.headDim / 2;
  const inverseFrequencies = Array.from({ length: halfDim }, (_, index) => config.ropeTheta ** ((-2 * index) / config.headDim));
  const levels: { stride: number; rows: number }[] = [];
  for (let stride = 1; stride < config.maxPositions; stride *= ROTARY_LEVEL_SIZE) {
    levels.push({ stride, rows: Math.min(ROTARY_LEVEL_SIZE, Math.ceil(config.maxPositions / stride)) });
  }
  if (levels.length === 0) levels.push({ stride: 1, rows: 1 });
  const gathered = levels.map(({ stride, rows }, level) => {
    const cosTable = new Float32Array(rows * halfDim);
    const sinTable = new Float32Array(rows * halfDim);
    for (let digit = 0; digit < rows; digit++) {
      for (let index = 0; index < halfDim; index++) {
        const angle = digit * stride * inverseFrequencies[index]!;
        cosTable[digit * halfDim + index] = Math.cos(angle);
        sinTable[digit * halfDim + index] = Math.sin(angle);
      }
    }
    // The digit of this level: (position / stride) mod 1024; the top level needs no mod.
    let digits: string = onnxInputNames.positionIds;
    if (stride > 1) digits = builder.node('Div', [digits, builder.int64Constant([stride], [])], { scope });
    if (level < levels.length - 1) digits = builder.node('Mod', [digits, builder.int64Constant([ROTARY_LEVEL_SIZE], [])], { scope });
    const suffix = levels.length === 1 ? '' : `_level${level}`;
    const gather = (name: string, table: Float32Array) =>
      builder.node('Gather', [builder.floatInitializer(`${name}${suffix}`, [rows, halfDim], table), digits], { scope, attributes: { axis: 0 } });
    return { cos: gather('rotary_cos_table', cosTable), sin: gather('rotary_sin_table', sinTable) };
  });
  let { cos, sin } = gathered[0]!;
  for (const next of gathered.slice(1)) {
    const mul = (a: string, b: string) => builder.node('Mul', [a, b], { scope });
    [cos, sin] = [
      builder.node('Sub', [mul(cos, next.cos), mul(sin, next.sin)], { scope }),
      builder.node('Add', [mul(sin, next.cos), mul(cos, next.sin)], { scope }),
    ];
  }
  const unsqueeze = (rows: string) => builder.node('Unsqueeze', [rows, builder.int64Constant([1])], { scope });
  return { cos: unsqueeze(cos), sin: unsqueeze(sin) };
}

/**
 * Rotates `x` `[batch, heads, sequence, headDim]` in Hugging Face's rotate_half layout:
 * dimension `i` pairs with `i + headDim/2`.
 */
export function applyRotaryNodes(context: DecoderGraphContext, x: string, rotary: RotaryInputs, scope: string): string {
  const { builder, config } = context;
  const halfDim = config.headDim / 2;
  const [first, second] = builder.nodeWithOutputs('Split', [x, builder.int64Constant([halfDim, halfDim])], 2, { scope, attributes: { axis: 3 } });
  const mul = (a: string, b: string) => builder.node('Mul', [a, b], { scope });
  const rotatedFirst = builder.node('Sub', [mul(first!, rotary.cos), mul(second!, rotary.sin)], { scope });
  const rotatedSecond = builder.node('Add', [mul(second!, rotary.cos), mul(first!, rotary.sin)], { scope });
  return builder.node('Concat', [rotatedFirst, rotatedSecond], { scope, attributes: { axis: 3 } });
}
