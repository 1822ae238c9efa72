import { int8MatmulInWasm, type ProductInWasm } from './wasm-int8-matmul.js';
import { matmulColumnBlock, matmulRowBlock } from './matmul-simd.js';
import { locateOperands } from './wasm-operands.js';

/**
 * `out = x · wᵀ (+ bias)` over a quantized or 16-bit `w`, in the memory of `heap` (the one that
 * holds `w`, else `w` is copied into scratch). q8: the integer product (`int8MatmulInWasm`). q4,
 * bf16 and fp16: blocks of `w`'s rows (as many as `matmul` sweeps from the L2 cache at once)
 * widened into scratch by the SIMD kernels, then multiplied by `matmul` into their columns of the
 * output. Each block is widened once for all the rows of `x`, and each output is `matmul`'s over
 * the widened weights, bit for bit.
 */
export const quantizedMatmulInWasm: ProductInWasm = (heap, kernels, out, x, w, rows, inDim, outDim, bias) => {
  if (rows === 0 || outDim === 0) return;
  if (w.format === 'q8') {
    int8MatmulInWasm(heap, kernels, out, x, w, rows, inDim, outDim, bias);
    return;
  }
  const blockRows = Math.min(outDim, matmulColumnBlock(inDim));
  const resident = heap.residentAddress(w.bytes);
  const [xAddress, biasAddress, outAddress, blockAddress, copiedAddress] = locateOperands(
    heap,
    [
      [x, rows * inDim],
      [bias, outDim],
    ],
    rows * outDim,
    [blockRows * inDim, resident === undefined ? Math.ceil(w.bytes.byteLength / 4) : 0],
  ) as [number, number, number, number, number];
  const base = resident ?? copiedAddress;
  if (resident === undefined) heap.writeBytes(base, w.bytes);
  const data = base + w.dataOffset;
  const rowBlock = matmulRowBlock(inDim);
  for (let first = 0; first < outDim; first += blockRows) {
    const count = Math.min(blockRows, outDim - first);
    if (w.format === 'q4') {
      const blocksPerRow = inDim / 32;
      kernels.dequantizeQ4(blockAddress, data + first * blocksPerRow * 16, base + first * blocksPerRow * 4, count * blocksPerRow);
    } else if (w.format === 'bf16') kernels.dequantizeBf16(blockAddress, data + first * inDim * 2, count * inDim);
    else kernels.dequantizeFp16(blockAddress, data + first * inDim * 2, count * inDim);
    const biasAt = biasAddress === 0 ? 0 : biasAddress + first * 4;
    kernels.matmul(outAddress + first * 4, xAddress, blockAddress, biasAt, rows, inDim, count, outDim * 4, inDim * 4, inDim * 4, rowBlock, blockRows);
  }
  heap.read(outAddress, rows * outDim, out);
};
