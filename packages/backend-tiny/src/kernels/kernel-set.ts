import { matmulTransposed } from './matmul.js';

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
   * `out[rows, outDim] = x[rows, inDim] · w[outDim, inDim]ᵀ (+ bias[outDim])`, all row-major.
   * `w` is stored `[out, in]` as PyTorch's `nn.Linear` stores it.
   */
  matmulTransposed(
    out: Float32Array,
    x: Float32Array,
    w: Float32Array,
    rows: number,
    inDim: number,
    outDim: number,
    bias?: Float32Array,
  ): void;
}

/** Plain TypeScript kernels: available everywhere, the fallback for any faster set. */
export const scalarKernels: KernelSet = {
  name: 'scalar',
  matmulTransposed,
};
