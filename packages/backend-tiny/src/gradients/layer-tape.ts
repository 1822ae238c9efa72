import type { DecoderConfig } from '@reward-lens/spec';
import type { BufferPool } from './buffer-pool.js';

/**
 * One decoder block's values over the packed tokens, kept by the forward pass for the backward
 * pass (or, in a tangent tape, their directional derivatives): `x → n1 = rms(x) → q, k, v →
 * attention → mid = x + o_proj → n2 = rms(mid) → gate, up → h = silu(gate)·up → out = mid + down`.
 */
export interface LayerTape {
  input: Float32Array;
  inputRoots: Float64Array;
  normedInput: Float32Array;
  /** Rotated queries and keys, as attention reads them. */
  queries: Float32Array;
  keys: Float32Array;
  values: Float32Array;
  attention: Float32Array;
  middle: Float32Array;
  middleRoots: Float64Array;
  normedMiddle: Float32Array;
  gate: Float32Array;
  up: Float32Array;
  activation: Float32Array;
}

export function allocateTape(config: DecoderConfig, tokens: number, input: Float32Array, pool: BufferPool): LayerTape {
  const { hiddenSize, numHeads, numKvHeads, headDim, intermediateSize } = config;
  const floats = (width: number) => pool.floats(tokens * width, false);
  return {
    input,
    inputRoots: new Float64Array(tokens),
    normedInput: floats(hiddenSize),
    queries: floats(numHeads * headDim),
    keys: floats(numKvHeads * headDim),
    values: floats(numKvHeads * headDim),
    attention: floats(numHeads * headDim),
    middle: floats(hiddenSize),
    middleRoots: new Float64Array(tokens),
    normedMiddle: floats(hiddenSize),
    gate: floats(intermediateSize),
    up: floats(intermediateSize),
    activation: floats(intermediateSize),
  };
}

/** Scratch of the backward pass, sized once and reused by every block. */
export interface BackwardScratch {
  dActivation: Float32Array;
  dGate: Float32Array;
  dUp: Float32Array;
  dNormed: Float32Array;
  dAttention: Float32Array;
  dQueries: Float32Array;
  dKeys: Float32Array;
  dValues: Float32Array;
}

export function createBackwardScratch(config: DecoderConfig, tokens: number, pool: BufferPool): BackwardScratch {
  const { hiddenSize, numHeads, numKvHeads, headDim, intermediateSize } = config;
  const floats = (width: number) => pool.floats(tokens * width, false);
  return {
    dActivation: floats(intermediateSize),
    dGate: floats(intermediateSize),
    dUp: floats(intermediateSize),
    dNormed: floats(hiddenSize),
    dAttention: floats(numHeads * headDim),
    dQueries: floats(numHeads * headDim),
    dKeys: floats(numKvHeads * headDim),
    dValues: floats(numKvHeads * headDim),
  };
}
