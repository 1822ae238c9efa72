import { headWidth, type DecoderConfig, type DecoderModel, type HeadKindV1 } from '@reward-lens/spec';
import { resolveHeadTensors, type ResolvedHead } from '@reward-lens/spec/internal';

import { BufferUsage } from '../device/gpu-constants.js';
import type { GpuRuntime } from '../device/gpu-runtime.js';
import type { WeightBuffer } from '../shaders/kernel-set.js';
import type { WeightType } from '../shaders/shader-types.js';
import { GpuRotaryTables } from './rotary-tables.js';
import { concatFloats, uploadRegion, weightMatrices, weightTypeOf, type WebGpuDtype } from './weight-matrices.js';

export interface GpuLayerWeights {
  inputNorm: GPUBuffer;
  /** q, k and v projections stacked: `[(numHeads + 2 numKvHeads) headDim, hidden]`. */
  qkvWeight: WeightBuffer;
  qkvBias: GPUBuffer | undefined;
  outputWeight: WeightBuffer;
  postAttentionNorm: GPUBuffer;
  gateWeight: WeightBuffer;
  upWeight: WeightBuffer;
  downWeight: WeightBuffer;
}

/**
 * A head's operation on the GPU. A ReLU is fused into the linear layer before it (`relu`), so
 * Qwen2.5-Math-PRM's `score.0` → ReLU is one matmul dispatch.
 */
export type GpuHeadStep =
  | { op: 'rms-norm'; weight: GPUBuffer; eps: number; size: number }
  | { op: 'linear'; weight: GPUBuffer; bias: GPUBuffer | undefined; inFeatures: number; outFeatures: number; relu: boolean };

/** A head compiled from its description (`describeHead`); the last step is the output projection. */
export interface GpuHeadWeights {
  name: string;
  kind: HeadKindV1;
  width: number;
  steps: GpuHeadStep[];
}

/**
 * A decoder's tensors on the GPU, uploaded once per backend. The layers' matrices, and the
 * embedding table unless a head reads it, as the dtype holds them (the quantization plan);
 * heads, norms, biases and rotary tables in f32.
 */
export interface GpuWeights {
  config: DecoderConfig;
  /** The dtype's own weight type (`f32` under fp32); `weightTypes` every one the layers hold (a q4 model holds some q8 matrices). */
  weightType: WeightType;
  weightTypes: WeightType[];
  embedTokens: WeightBuffer;
  layers: GpuLayerWeights[];
  heads: Map<string, GpuHeadWeights>;
  /** Grown to the positions scored (call `rotary.ensure` before encoding); destroyed with the buffers. */
  rotary: GpuRotaryTables;
  /** Every buffer above but the rotary tables', once each, for dispose. */
  buffers: GPUBuffer[];
  byteLength: number;
}

/** Uploads a validated model, its layers' matrices (and embedding table) held as `dtype` (see `weightMatrices`). */
export function uploadWeights(runtime: GpuRuntime, model: DecoderModel, dtype: WebGpuDtype): GpuWeights {
  const { config } = model;
  const buffers: GPUBuffer[] = [];
  let byteLength = 0;
  const upload = (label: string, data: ArrayBufferView): GPUBuffer => {
    const buffer = runtime.uploadBuffer(label, data, BufferUsage.STORAGE | BufferUsage.COPY_SRC);
    buffers.push(buffer);
    byteLength += buffer.size;
    return buffer;
  };
  const matrices = weightMatrices(model, dtype);
  const matrix = (name: string) => uploadRegion(name, matrices.region(name), upload);
  const vector = (name: string) => upload(name, matrices.floats(name));

  const layers: GpuLayerWeights[] = [];
  for (let layer = 0; layer < config.numLayers; layer++) {
    const prefix = `model.layers.${layer}`;
    const attention = `${prefix}.self_attn`;
    const names = ['q_proj', 'k_proj', 'v_proj'].map((name) => `${attention}.${name}`);
    layers.push({
      inputNorm: vector(`${prefix}.input_layernorm.weight`),
      qkvWeight: uploadRegion(`${attention}.qkv_proj.weight`, matrices.stacked(names.map((name) => `${name}.weight`)), upload),
      qkvBias: config.attentionBias ? upload(`${attention}.qkv_proj.bias`, concatFloats(names.map((name) => matrices.floats(`${name}.bias`)))) : undefined,
      outputWeight: matrix(`${attention}.o_proj.weight`),
      postAttentionNorm: vector(`${prefix}.post_attention_layernorm.weight`),
      gateWeight: matrix(`${prefix}.mlp.gate_proj.weight`),
      upWeight: matrix(`${prefix}.mlp.up_proj.weight`),
      downWeight: matrix(`${prefix}.mlp.down_proj.weight`),
    });
  }
  const embedTokens = matrix('model.embed_tokens.weight');
  // Each tensor uploads once, whichever heads read it (a tied LM head reads the embedding table, float32 then).
  const uploaded = new Map<string, GPUBuffer>(embedTokens.type === 'f32' ? [['model.embed_tokens.weight', embedTokens.buffer]] : []);
  const once = (name: string, make: () => GPUBuffer) => {
    let buffer = uploaded.get(name);
    if (!buffer) {
      buffer = make();
      uploaded.set(name, buffer);
    }
    return buffer;
  };
  const heads = new Map<string, GpuHeadWeights>();
  for (const head of config.heads) {
    // Heads stay float32 (outside the plan), whatever the dtype.
    const steps = compileHead(resolveHeadTensors(config, head, (name) => once(name, () => vector(name))));
    heads.set(head.name, { name: head.name, kind: head.kind, width: headWidth(config, head), steps });
  }
  const rotary = new GpuRotaryTables(runtime, config.headDim, config.maxPositions, config.ropeTheta);
  const weightTypes = matrices.types();
  return {
    config,
    weightType: weightTypeOf[dtype],
    weightTypes: weightTypes.length > 0 ? weightTypes : ['f32'],
    embedTokens,
    layers,
    heads,
    rotary,
    buffers,
    byteLength: byteLength + rotary.byteLength,
  };
}

/** A head's resolved steps as GPU steps: every operation kept, each ReLU fused into the linear layer before it. */
export function compileHead(head: ResolvedHead<GPUBuffer>): GpuHeadStep[] {
  const steps: GpuHeadStep[] = [];
  for (const step of head.steps) {
    if (step.op !== 'relu') {
      steps.push(step.op === 'linear' ? { ...step, relu: false } : step);
      continue;
    }
    const previous = steps[steps.length - 1];
    if (previous?.op !== 'linear' || previous.relu) throw new Error(`head "${head.name}": a ReLU must follow a linear layer on WebGPU`);
    previous.relu = true;
  }
  const last = steps[steps.length - 1];
  if (last?.op !== 'linear' || last.relu) throw new Error(`head "${head.name}" does not end with its output projection`);
  return steps;
}
