import type { QuantizedTensorV1 } from '@reward-lens/spec';
import { matmulTransposed } from './matmul.js';
import { matmul, matmulTransposedLeft } from './matmul-untransposed.js';

/** The head layout attention needs. */
export interface AttentionShape {
  numHeads: number;
  numKvHeads: number;
  headDim: number;
}

/**
 * The dense kernels the forward pass runs on, behind one seam so that a WebAssembly SIMD
 * implementation can replace the scalar one where the platform has it.
 *
 * Contract for every implementation: the result for one row of `x` depends on that row alone
 * (never on how many rows there are or where the row sits among them). The backend relies on
 * this to give a sequence bit-identical results whatever batch it is scored in.
 */
export interface KernelSet {
  readonly name: string;
  /**
   * Announces a weight matrix or bias that later products will use many times, so that a set
   * can keep its own copy where its kernels read fastest (the WebAssembly set uploads it into
   * its linear memory once). Optional; the backend calls it for every weight when it is created.
   * The array must not change afterwards: a set may keep using its copy.
   */
  prepareWeights?(weights: Float32Array): void;
  /**
   * `out[rows, outDim] = x[rows, inDim] · w[outDim, inDim]ᵀ (+ bias[outDim])`, all row-major.
   * `w` is stored `[out, in]` as PyTorch's `nn.Linear` stores it.
   */
  matmulTransposed(out: Float32Array, x: Float32Array, w: Float32Array, rows: number, inDim: number, outDim: number, bias?: Float32Array): void;
  /**
   * Optional: `matmulTransposed` over a quantized `w` (`[outDim, inDim]`), with the result of
   * `matmulTransposed` over `w` dequantized (see `quantized-matrix.ts`). Without it `linear`
   * dequantizes blocks of rows and runs `matmulTransposed` on them.
   */
  matmulQuantized?(out: Float32Array, x: Float32Array, w: QuantizedTensorV1, rows: number, inDim: number, outDim: number, bias?: Float32Array): void;
  /**
   * Optional: `out[rows, outDim] (+)= x[rows, inDim] · w[inDim, outDim]`, all row-major, adding
   * to `out` when `accumulate` is set. Backpropagation through `y = x·Wᵀ` takes `dx = dy·W` so.
   * Without it the gradients run on `matmulTransposed` over a transposed copy of `w`.
   */
  matmul?(out: Float32Array, x: Float32Array, w: Float32Array, rows: number, inDim: number, outDim: number, accumulate?: boolean): void;
  /**
   * Optional: `out[aDim, bDim] (+)= a[rows, aDim]ᵀ · b[rows, bDim]`, a sum over the rows: a
   * weight's gradient `dW = dyᵀ·x`. Without it the gradients transpose both operands.
   */
  matmulTransposedLeft?(out: Float32Array, a: Float32Array, b: Float32Array, rows: number, aDim: number, bDim: number, accumulate?: boolean): void;
  /**
   * Optional: a prepared array's contents changed (a training step updated the weights); a set
   * that keeps its own copy copies it again. Required of a set with `prepareWeights` for training.
   */
  refreshWeights?(weights: Float32Array): void;
  /**
   * Optional: `gate[i] = silu(gate[i]) · up[i]` for `i < count` (Llama's gated MLP activation).
   * Without it the model runs its own loop.
   */
  gatedSilu?(gate: Float32Array, up: Float32Array, count: number): void;
  /**
   * Optional: backpropagation through `h = silu(gate)·up`: writes `dGate = dh·up·silu'(gate)`
   * and `dUp = dh·silu(gate)` for `i < count`. Without it the gradients run their own loop.
   */
  gatedSiluBackward?(dGate: Float32Array, dUp: Float32Array, dh: Float32Array, gate: Float32Array, up: Float32Array, count: number): void;
  /**
   * Optional: backpropagation through the causal attention of one row's tokens (rows
   * `start..start + count` of the packed `[tokens, width]` arrays, rotated queries and keys):
   * writes those rows of `dQueries`, `dKeys`, `dValues` from `dOutput`. Without it the
   * gradients run the same steps on the products above.
   */
  attentionBackwardRow?(
    shape: AttentionShape,
    queries: Float32Array,
    keys: Float32Array,
    values: Float32Array,
    dOutput: Float32Array,
    dQueries: Float32Array,
    dKeys: Float32Array,
    dValues: Float32Array,
    start: number,
    count: number,
  ): void;
  /**
   * Optional: the whole causal attention of one row's new tokens, with the arguments and the
   * meaning of the model's `attendRow` (`model/attention.ts`), which runs without it on
   * `matmulTransposed`. Each new token's output must depend only on its query and the keys and
   * values it sees.
   */
  attendRow?(
    shape: AttentionShape,
    queries: Float32Array,
    output: Float32Array,
    queryStart: number,
    tokenCount: number,
    pastLength: number,
    keys: Float32Array,
    values: Float32Array,
  ): void;
}

/** Plain TypeScript kernels: available everywhere, the fallback for any faster set. */
export const scalarKernels: KernelSet = {
  name: 'scalar',
  matmulTransposed,
  matmul,
  matmulTransposedLeft,
};
