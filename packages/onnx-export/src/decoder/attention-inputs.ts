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

/**
 * Cosines and sines for each token, gathered from tables of every position by `position_ids`.
 * The tables are computed in float64 and stored as float32, as backend-tiny does.
 */
export function rotaryInputNodes(context: DecoderGraphContext): RotaryInputs {
  const { builder, config } = context;
  const scope = '/model/rotary_emb';
  const halfDim = config.headDim / 2;
  const cosTable = new Float32Array(config.maxPositions * halfDim);
  const sinTable = new Float32Array(config.maxPositions * halfDim);
  for (let index = 0; index < halfDim; index++) {
    const inverseFrequency = config.ropeTheta ** ((-2 * index) / config.headDim);
    for (let position = 0; position < config.maxPositions; position++) {
      cosTable[position * halfDim + index] = Math.cos(position * inverseFrequency);
      sinTable[position * halfDim + index] = Math.sin(position * inverseFrequency);
    }
  }
  const gather = (name: string, table: Float32Array) => {
    const initializer = builder.floatInitializer(name, [config.maxPositions, halfDim], table);
    const rows = builder.node('Gather', [initializer, onnxInputNames.positionIds], { scope, attributes: { axis: 0 } });
    return builder.node('Unsqueeze', [rows, builder.int64Constant([1])], { scope });
  };
  return { cos: gather('rotary_cos_table', cosTable), sin: gather('rotary_sin_table', sinTable) };
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
