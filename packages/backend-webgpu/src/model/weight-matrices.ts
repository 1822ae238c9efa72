import type { DecoderModel, QuantizedTensorV1 } from '@reward-lens/spec';
import { dequantizeRows, quantizationPlan, quantizeTensor } from '@reward-lens/spec/internal';

import type { WeightBuffer } from '../shaders/kernel-set.js';
import type { WeightType } from '../shaders/shader-types.js';

/** The dtypes backend-webgpu holds a model's layers in, as its kernels read them. */
export type WebGpuDtype = 'fp32' | 'fp16' | 'bf16' | 'q8' | 'q4';

/** How the kernels hold each dtype's matrices (a quantized format is the dtype of its name). */
export const weightTypeOf: Record<WebGpuDtype, WeightType> = { fp32: 'f32', fp16: 'f16', bf16: 'bf16', q8: 'q8', q4: 'q4' };

/** The dtype whose matrices the kernels hold as `type`. */
export const dtypeOf = Object.fromEntries(Object.entries(weightTypeOf).map(([dtype, type]) => [type, dtype])) as Record<WeightType, WebGpuDtype>;

/** How a matrix's region reaches the GPU: its values' bytes, and its scales for q8 and q4. */
interface MatrixRegion {
  type: WeightType;
  data: Uint8Array;
  scales?: Float32Array;
}

/**
 * The matrices of a model for upload at `dtype`, following spec's quantization plan (every
 * projection, and the embedding table unless a head reads it; under q4 a matrix whose rows are
 * not whole blocks of 32 is q8): a loader's tensors already held in the planned format are
 * uploaded as they are, never widened; float32 ones are rounded or quantized here, one at a time.
 * Matrices outside the plan (heads) stay float32.
 */
export function weightMatrices(model: DecoderModel, dtype: WebGpuDtype) {
  const plan = quantizationPlan(model.config, dtype).tensors;
  const floats = (name: string): Float32Array => {
    const found = model.tensors.get(name);
    if (found) return found;
    const held = model.quantized?.get(name);
    if (!held) throw new Error(`tensor "${name}" is missing after validation`);
    const widened = new Float32Array(held.rows * held.columns);
    dequantizeRows(held, 0, held.rows, widened);
    return widened;
  };
  const region = (name: string): MatrixRegion => {
    const planned = plan.get(name);
    if (!planned) return { type: 'f32', data: bytesOf(floats(name)) };
    const held = model.quantized?.get(name);
    const tensor: QuantizedTensorV1 = held?.format === planned.format ? held : quantizeTensor(floats(name), planned.format, planned.rows, planned.columns);
    return {
      type: weightTypeOf[planned.format],
      data: bytesOf(tensor.data),
      ...(tensor.scales.length > 0 ? { scales: tensor.scales } : {}),
    };
  };
  return {
    /** The weight types of the planned matrices (the first the dtype's own), for the kernels to compile. */
    types: (): WeightType[] => [...new Set([...plan.values()].map((entry) => weightTypeOf[entry.format]))],
    /** The regions of `names` stacked by rows (q, k and v as one matrix), all of one type. */
    stacked(names: readonly string[]): MatrixRegion {
      const parts = names.map(region);
      const type = parts[0]!.type;
      if (parts.some((part) => part.type !== type)) throw new Error(`${names.join(', ')} are not held alike, so they cannot be stacked`);
      const scales = parts[0]!.scales ? concatFloats(parts.map((part) => part.scales!)) : undefined;
      return { type, data: concatBytes(parts.map((part) => part.data)), ...(scales ? { scales } : {}) };
    },
    region,
    floats,
  };
}

/** Uploads a region as a `WeightBuffer` (its scales beside it). */
export function uploadRegion(name: string, region: MatrixRegion, upload: (label: string, data: ArrayBufferView) => GPUBuffer): WeightBuffer {
  return {
    buffer: upload(name, region.data),
    type: region.type,
    ...(region.scales ? { scales: upload(`${name} scales`, region.scales) } : {}),
  };
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

function byteLengthOf(parts: readonly Uint8Array[]): number {
  return parts.reduce((sum, part) => sum + part.byteLength, 0);
}

function concatBytes(parts: Uint8Array[]): Uint8Array {
  const result = new Uint8Array(byteLengthOf(parts));
  // Each part at the sum of the lengths before it (a few parts: q, k and v).
  parts.forEach((part, index) => result.set(part, byteLengthOf(parts.slice(0, index))));
  return result;
}

/** Float32 arrays end to end. */
export function concatFloats(parts: Float32Array[]): Float32Array {
  return new Float32Array(concatBytes(parts.map(bytesOf)).buffer);
}
