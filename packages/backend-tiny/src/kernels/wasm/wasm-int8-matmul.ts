import type { QuantizedTensorV1 } from '@reward-lens/spec';
import { matmulQ8ColumnBlock, matmulQ8RowBlock, quantizedRowBytes } from './int8-matmul-simd.js';
import type { KernelModuleExports } from './kernel-module.js';
import type { WasmHeap } from './wasm-heap.js';
import { locateOperands } from './wasm-operands.js';

/** `out[rows, outDim] = x[rows, inDim] · wᵀ (+ bias)` over a reduced `w`, in the memory of `heap` with the module instantiated over it. */
export type ProductInWasm = (
  heap: WasmHeap,
  kernels: KernelModuleExports,
  out: Float32Array,
  x: Float32Array,
  w: QuantizedTensorV1,
  rows: number,
  inDim: number,
  outDim: number,
  bias: Float32Array | undefined,
) => void;

/**
 * `out = x · wᵀ (+ bias)` over q8 weights in integers, in the memory of `heap` (the one that
 * holds `w`, else `w` is copied into scratch): each row of `x` quantized on its own to 16-bit
 * integers with a scale (`quantizeActivations`), then `matmulQ8` (`i32x4.dot_i16x8_s` over the int8
 * weights where they lie), each output `sum · (scaleX · scaleW) (+ bias)`. The weights are never
 * widened: a quarter of the float32 kernel's weight traffic, and eight products an instruction.
 */
export const int8MatmulInWasm: ProductInWasm = (heap, kernels, out, x, w, rows, inDim, outDim, bias) => {
  const resident = heap.residentAddress(w.bytes);
  const rowBytes = quantizedRowBytes(inDim);
  const [xAddress, biasAddress, outAddress, quantizedAddress, scalesAddress, copiedAddress] = locateOperands(
    heap,
    [
      [x, rows * inDim],
      [bias, outDim],
    ],
    rows * outDim,
    [(rows * rowBytes) / 4, rows, resident === undefined ? Math.ceil(w.bytes.byteLength / 4) : 0],
  ) as [number, number, number, number, number, number];
  const base = resident ?? copiedAddress;
  if (resident === undefined) heap.writeBytes(base, w.bytes);
  kernels.quantizeActivations(quantizedAddress, scalesAddress, xAddress, rows, inDim, rowBytes);
  kernels.matmulQ8(
    outAddress,
    quantizedAddress,
    base + w.dataOffset,
    biasAddress,
    rows,
    inDim,
    outDim,
    outDim * 4,
    rowBytes,
    inDim,
    matmulQ8RowBlock(inDim),
    matmulQ8ColumnBlock(inDim),
    scalesAddress,
    base,
  );
  heap.read(outAddress, rows * outDim, out);
};
