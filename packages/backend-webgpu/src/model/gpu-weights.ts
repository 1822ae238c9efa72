import { headWidth, type DecoderConfig, type DecoderModel, type HeadKindV1 } from '@reward-lens/spec';
import { dequantizeRows, quantizationPlan, resolveHeadTensors, toBfloat16Bits, type ResolvedHead } from '@reward-lens/spec/internal';

import { BufferUsage } from '../device/gpu-constants.js';
import type { GpuRuntime } from '../device/gpu-runtime.js';
import type { WeightType } from '../shaders/shader-types.js';
import { toFloat16Array } from './float16.js';
import { GpuRotaryTables } from './rotary-tables.js';

export interface GpuLayerWeights {
  inputNorm: GPUBuffer;
  /** q, k and v projections stacked: `[(numHeads + 2 numKvHeads) headDim, hidden]`. */
  qkvWeight: GPUBuffer;
  qkvBias: GPUBuffer | undefined;
  outputWeight: GPUBuffer;
  postAttentionNorm: GPUBuffer;
  gateWeight: GPUBuffer;
  upWeight: GPUBuffer;
  downWeight: GPUBuffer;
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
 * A decoder's tensors on the GPU, uploaded once per backend. The layers' matrices in `weightType`,
 * and the embedding table unless a head reads it (`embeddingType`), as the quantization plan has
 * it; heads, norms, biases and rotary tables in f32.
 */
export interface GpuWeights {
  config: DecoderConfig;
  weightType: WeightType;
  embedTokens: GPUBuffer;
  embeddingType: WeightType;
  layers: GpuLayerWeights[];
  heads: Map<string, GpuHeadWeights>;
  /** Grown to the positions scored (call `rotary.ensure` before encoding); destroyed with the buffers. */
  rotary: GpuRotaryTables;
  /** Every buffer above but the rotary tables', once each, for dispose. */
  buffers: GPUBuffer[];
  byteLength: number;
}

/** Uploads a validated model. */
export function uploadWeights(runtime: GpuRuntime, model: DecoderModel, weightType: WeightType): GpuWeights {
  const { config, tensors } = model;
  const buffers: GPUBuffer[] = [];
  let byteLength = 0;
  // A loader's 16-bit tensors are widened one at a time (exactly) and narrowed again to f16 where the matrices are f16.
  const tensor = (name: string): Float32Array => {
    const found = tensors.get(name);
    if (found) return found;
    const held = model.quantized?.get(name);
    if (!held) throw new Error(`tensor "${name}" is missing after validation`);
    const widened = new Float32Array(held.rows * held.columns);
    dequantizeRows(held, 0, held.rows, widened);
    return widened;
  };
  const upload = (label: string, data: ArrayBufferView): GPUBuffer => {
    const buffer = runtime.uploadBuffer(label, data, BufferUsage.STORAGE | BufferUsage.COPY_SRC);
    buffers.push(buffer);
    byteLength += buffer.size;
    return buffer;
  };
  const matrix = (label: string, values: Float32Array) =>
    upload(label, weightType === 'f16' ? toFloat16Array(values) : weightType === 'bf16' ? toBfloat16Array(values) : values);
  // The plan's matrices (every projection, the embedding table unless a head reads it) in `weightType`; the rest float32.
  const planned = quantizationPlan(config, weightType === 'f32' ? 'fp32' : weightType === 'f16' ? 'fp16' : 'bf16').tensors;
  // bf16: a loader's bf16 tensors are uploaded as their bits, never widened (the weights held once, at their precision).
  const heldBf16 = (name: string) => {
    const held = weightType === 'bf16' ? model.quantized?.get(name) : undefined;
    return held?.format === 'bf16' ? (held.data as Uint16Array) : undefined;
  };
  const projection = (name: string) => {
    if (!planned.has(name)) return upload(name, tensor(name));
    const bits = heldBf16(name);
    return bits ? upload(name, padToWords(bits)) : matrix(name, tensor(name));
  };
  const vector = (name: string) => upload(name, tensor(name));

  const layers: GpuLayerWeights[] = [];
  for (let layer = 0; layer < config.numLayers; layer++) {
    const prefix = `model.layers.${layer}`;
    const attention = `${prefix}.self_attn`;
    const names = ['q_proj', 'k_proj', 'v_proj'].map((name) => `${attention}.${name}`);
    const stacked = (suffix: string) => concat(names.map((name) => tensor(`${name}.${suffix}`)));
    const heldQkv = names.map((name) => heldBf16(`${name}.weight`));
    const qkvWeight = heldQkv.every((bits) => bits !== undefined)
      ? upload(`${attention}.qkv_proj.weight`, padToWords(concatBits(heldQkv)))
      : matrix(`${attention}.qkv_proj.weight`, stacked('weight'));
    layers.push({
      inputNorm: vector(`${prefix}.input_layernorm.weight`),
      qkvWeight,
      qkvBias: config.attentionBias ? upload(`${attention}.qkv_proj.bias`, stacked('bias')) : undefined,
      outputWeight: projection(`${attention}.o_proj.weight`),
      postAttentionNorm: vector(`${prefix}.post_attention_layernorm.weight`),
      gateWeight: projection(`${prefix}.mlp.gate_proj.weight`),
      upWeight: projection(`${prefix}.mlp.up_proj.weight`),
      downWeight: projection(`${prefix}.mlp.down_proj.weight`),
    });
  }
  const embedTokens = projection('model.embed_tokens.weight');
  // Each tensor uploads once, whichever heads read it (a tied LM head reads the embedding table).
  const uploaded = new Map<string, GPUBuffer>([['model.embed_tokens.weight', embedTokens]]);
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
    const steps = compileHead(resolveHeadTensors(config, head, (name, shape) => once(name, () => (shape === 'matrix' ? projection(name) : vector(name)))));
    heads.set(head.name, { name: head.name, kind: head.kind, width: headWidth(config, head), steps });
  }
  const rotary = new GpuRotaryTables(runtime, config.headDim, config.maxPositions, config.ropeTheta);
  const embeddingType = planned.has('model.embed_tokens.weight') ? weightType : 'f32';
  return { config, weightType, embedTokens, embeddingType, layers, heads, rotary, buffers, byteLength: byteLength + rotary.byteLength };
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

/** float32 values as bfloat16 bits (round to nearest, ties to even, as the loaders round), padded to whole 4-byte words. */
function toBfloat16Array(values: Float32Array): Uint16Array {
  const bits = new Uint16Array(values.length + (values.length % 2));
  for (let index = 0; index < values.length; index++) bits[index] = toBfloat16Bits(values[index]!);
  return bits;
}

/** 16-bit values padded to whole 4-byte words (GPU buffers are), copied only when they must be. */
function padToWords(bits: Uint16Array): Uint16Array {
  if (bits.length % 2 === 0) return bits;
  const padded = new Uint16Array(bits.length + 1);
  padded.set(bits);
  return padded;
}

function concatBits(parts: (Uint16Array | undefined)[]): Uint16Array {
  const result = new Uint16Array(parts.reduce((sum, part) => sum + part!.length, 0));
  let offset = 0;
  for (const part of parts) {
    result.set(part!, offset);
    offset += part!.length;
  }
  return result;
}

function concat(parts: Float32Array[]): Float32Array {
  const result = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    result.set(part, offset);
    offset += part.length;
  }
  return result;
}
