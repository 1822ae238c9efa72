import type { KernelSet } from '../kernels/kernel-set.js';
import { linear } from '../kernels/linear.js';
import type { LayerWeights } from './decoder-weights.js';

/** SiLU-gated MLP scratch: `[chunkRows, intermediateSize]` each. */
export interface MlpScratch {
  chunkRows: number;
  gate: Float32Array;
  up: Float32Array;
}

/**
 * Tokens per MLP chunk. The intermediate activations are the largest buffers of a forward;
 * chunking bounds them independently of the batch (tokens are independent here, so chunking
 * does not change any result).
 */
const MLP_CHUNK_ROWS = 256;

export function createMlpScratch(tokens: number, intermediateSize: number): MlpScratch {
  const chunkRows = Math.max(1, Math.min(tokens, MLP_CHUNK_ROWS));
  return { chunkRows, gate: new Float32Array(chunkRows * intermediateSize), up: new Float32Array(chunkRows * intermediateSize) };
}

/** `out = down_proj(silu(gate_proj(x)) * up_proj(x))` for `tokens` rows of `x` `[tokens, hidden]`. */
export function runMlp(
  kernels: KernelSet,
  weights: LayerWeights,
  out: Float32Array,
  x: Float32Array,
  tokens: number,
  hiddenSize: number,
  intermediateSize: number,
  scratch: MlpScratch,
): void {
  const { gate, up, chunkRows } = scratch;
  for (let start = 0; start < tokens; start += chunkRows) {
    const rows = Math.min(chunkRows, tokens - start);
    const input = x.subarray(start * hiddenSize, (start + rows) * hiddenSize);
    linear(kernels, gate, input, weights.gateWeight, rows, hiddenSize, intermediateSize);
    linear(kernels, up, input, weights.upWeight, rows, hiddenSize, intermediateSize);
    const activations = rows * intermediateSize;
    if (kernels.gatedSilu) kernels.gatedSilu(gate, up, activations);
    else {
      for (let index = 0; index < activations; index++) {
        const value = gate[index]!;
        gate[index] = (value / (1 + Math.exp(-value))) * up[index]!;
      }
    }
    const target = out.subarray(start * hiddenSize, (start + rows) * hiddenSize);
    linear(kernels, target, gate, weights.downWeight, rows, intermediateSize, hiddenSize);
  }
}
