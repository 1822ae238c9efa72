import { pastKeyName, pastValueName, presentKeyName, presentValueName } from '../onnx-names.js';
import { applyRotaryNodes, type RotaryInputs } from './attention-inputs.js';
import { linearNodes, rmsNormNodes, type DecoderGraphContext } from './decoder-graph-context.js';

export interface LayerInputs {
  /** The residual stream `[batch, sequence, hidden]` before the layer. */
  hidden: string;
  rotary: RotaryInputs;
  attentionBias: string;
  withPast: boolean;
  /** Name for the residual stream after the layer (a graph output when hidden states are exported). */
  output: string;
}

/**
 * One pre-norm decoder block: `x += o_proj(attention(rmsNorm(x)))`, then
 * `x += down_proj(silu(gate_proj(h)) * up_proj(h))` with `h = rmsNorm(x)`.
 * With a past, the layer's keys and values are concatenated after `past_key_values.{layer}.*`
 * and the results are the graph outputs `present.{layer}.*`.
 */
export function decoderLayerNodes(context: DecoderGraphContext, layer: number, inputs: LayerInputs): string {
  const { builder, config } = context;
  const { hiddenSize, intermediateSize } = config;
  const prefix = `model.layers.${layer}`;
  const scope = `/model/layers.${layer}`;

  const attentionInput = rmsNormNodes(context, inputs.hidden, `${prefix}.input_layernorm.weight`, `${scope}/input_layernorm`);
  const attention = attentionNodes(context, layer, attentionInput, inputs);
  const afterAttention = builder.node('Add', [inputs.hidden, attention], { scope });

  const mlpInput = rmsNormNodes(context, afterAttention, `${prefix}.post_attention_layernorm.weight`, `${scope}/post_attention_layernorm`);
  const projection = { inFeatures: hiddenSize, outFeatures: intermediateSize };
  const gate = linearNodes(context, mlpInput, `${prefix}.mlp.gate_proj.weight`, undefined, projection, `${scope}/mlp/gate_proj`);
  const up = linearNodes(context, mlpInput, `${prefix}.mlp.up_proj.weight`, undefined, projection, `${scope}/mlp/up_proj`);
  const silu = builder.node('Mul', [gate, builder.node('Sigmoid', [gate], { scope: `${scope}/mlp/act_fn` })], { scope: `${scope}/mlp/act_fn` });
  const gated = builder.node('Mul', [silu, up], { scope: `${scope}/mlp` });
  const down = linearNodes(
    context,
    gated,
    `${prefix}.mlp.down_proj.weight`,
    undefined,
    { inFeatures: intermediateSize, outFeatures: hiddenSize },
    `${scope}/mlp/down_proj`,
  );
  return builder.node('Add', [afterAttention, down], { scope, output: inputs.output });
}

/** Causal grouped-query self-attention with RoPE, returning the `o_proj` output `[batch, sequence, hidden]`. */
function attentionNodes(context: DecoderGraphContext, layer: number, x: string, inputs: LayerInputs): string {
  const { builder, config } = context;
  const { hiddenSize, numHeads, numKvHeads, headDim, attentionBias } = config;
  const prefix = `model.layers.${layer}.self_attn`;
  const scope = `/model/layers.${layer}/self_attn`;

  /** `[batch, sequence, heads * headDim]` → `[batch, heads, sequence, headDim]`. */
  const project = (name: 'q' | 'k' | 'v', heads: number): string => {
    const weight = `${prefix}.${name}_proj.weight`;
    const bias = attentionBias ? `${prefix}.${name}_proj.bias` : undefined;
    const projected = linearNodes(context, x, weight, bias, { inFeatures: hiddenSize, outFeatures: heads * headDim }, `${scope}/${name}_proj`);
    const split = builder.node('Reshape', [projected, builder.int64Constant([0, 0, heads, headDim])], { scope });
    return builder.node('Transpose', [split], { scope, attributes: { perm: [0, 2, 1, 3] } });
  };
  const queries = applyRotaryNodes(context, project('q', numHeads), inputs.rotary, `${scope}/rotary_q`);
  let keys = applyRotaryNodes(context, project('k', numKvHeads), inputs.rotary, `${scope}/rotary_k`);
  let values = project('v', numKvHeads);
  if (inputs.withPast) {
    keys = builder.node('Concat', [pastKeyName(layer), keys], { scope, attributes: { axis: 2 }, output: presentKeyName(layer) });
    values = builder.node('Concat', [pastValueName(layer), values], { scope, attributes: { axis: 2 }, output: presentValueName(layer) });
  }
  const group = numHeads / numKvHeads;
  if (group > 1) {
    // [batch, kvHeads, keys, headDim] → [batch, kvHeads, group, keys, headDim] → [batch, heads, keys, headDim]:
    // query head h reads kv head floor(h / group), as in Hugging Face's repeat_kv.
    const repeat = (tensor: string) => {
      const widened = builder.node('Unsqueeze', [tensor, builder.int64Constant([2])], { scope: `${scope}/repeat_kv` });
      const expanded = builder.node('Expand', [widened, builder.int64Constant([1, 1, group, 1, 1])], { scope: `${scope}/repeat_kv` });
      return builder.node('Reshape', [expanded, builder.int64Constant([0, numHeads, -1, headDim])], { scope: `${scope}/repeat_kv` });
    };
    keys = repeat(keys);
    values = repeat(values);
  }

  const scaledQueries = builder.node('Mul', [queries, builder.floatConstant(1 / Math.sqrt(headDim))], { scope });
  const keysTransposed = builder.node('Transpose', [keys], { scope, attributes: { perm: [0, 1, 3, 2] } });
  const scores = builder.node('Add', [builder.node('MatMul', [scaledQueries, keysTransposed], { scope }), inputs.attentionBias], { scope });
  const probabilities = builder.node('Softmax', [scores], { scope, attributes: { axis: 3 } });
  const context4d = builder.node('MatMul', [probabilities, values], { scope });
  const merged = builder.node('Transpose', [context4d], { scope, attributes: { perm: [0, 2, 1, 3] } });
  const flat = builder.node('Reshape', [merged, builder.int64Constant([0, 0, numHeads * headDim])], { scope });
  return linearNodes(context, flat, `${prefix}.o_proj.weight`, undefined, { inFeatures: numHeads * headDim, outFeatures: hiddenSize }, `${scope}/o_proj`);
}
