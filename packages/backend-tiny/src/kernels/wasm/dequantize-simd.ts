import { valueType, type CodeEmitter } from './code-emitter.js';
import type { WasmModuleBuilder } from './wasm-module-builder.js';

const { i32, f32, v128 } = valueType;

/**
 * Adds the exported dequantization kernels of `model/quantized-matrix.ts`'s formats, each weight
 * the float32 `scale · q` (an exact integer conversion, one rounding), as the TypeScript
 * `dequantizeRows` writes it:
 *
 * - `dequantizeQ8(out, data, scales, rows, columns)`: `rows` rows of signed bytes, one scale each;
 * - `dequantizeQ4(out, data, scales, blocks)`: `blocks` consecutive blocks of 32 weights (16
 *   bytes, weight `j` in byte `j`'s low nibble and `j + 16` in its high one, stored `q + 8`);
 * - `dequantizeBf16(out, data, count)` and `dequantizeFp16(out, data, count)`: `count` 16-bit
 *   floats widened exactly (fp16's subnormals by the float multiply that scales them, infinities
 *   and NaN by a mask).
 *
 * Addresses are in bytes; `out` receives row-major float32.
 */
export function addDequantize(builder: WasmModuleBuilder): void {
  builder.addFunction('dequantizeQ8', [i32, i32, i32, i32, i32], [], emitDequantizeQ8);
  builder.addFunction('dequantizeQ4', [i32, i32, i32, i32], [], emitDequantizeQ4);
  builder.addFunction('dequantizeBf16', [i32, i32, i32], [], (code) => emitWiden16(code, 'bf16'));
  builder.addFunction('dequantizeFp16', [i32, i32, i32], [], (code) => emitWiden16(code, 'fp16'));
}

/**
 * 16-bit floats to float32, 8 at a time, then one at a time (the same arithmetic in a splatted
 * vector, lane 0 kept). bf16: the bits shifted to the top half. fp16: `(h & 0x7fff) << 13` is a
 * float32 with the half's exponent field and mantissa; times 2^112 it is the half's value, for
 * normals and subnormals alike; an all-ones exponent (infinity, NaN) takes float32's instead;
 * then the sign.
 */
function emitWiden16(code: CodeEmitter, format: 'bf16' | 'fp16'): void {
  const [out, data, count] = [0, 1, 2];
  const index = code.addLocal(i32);
  const vectorEnd = code.addLocal(i32);
  const halves = code.addLocal(v128);
  const lanes = code.addLocal(v128);
  const magnitude = code.addLocal(v128);
  // Leaves the float32 bits of the four 16-bit values in `lanes` (zero-extended) on the stack.
  const widen = () => {
    if (format === 'bf16') {
      code.localGet(lanes).i32Const(16).i32x4Shl();
      return;
    }
    code.localGet(lanes).i32x4Const(0x7fff).v128And().localSet(magnitude);
    // bitselect(special, scaled, mask): the special spelling where the exponent is all ones.
    code
      .localGet(magnitude)
      .i32Const(13)
      .i32x4Shl()
      .i32x4Const(0x7f800000 | 0)
      .v128Or();
    code
      .localGet(magnitude)
      .i32Const(13)
      .i32x4Shl()
      .f32x4Const(2 ** 112)
      .f32x4Mul();
    code.localGet(magnitude).i32x4Const(0x7bff).i32x4GtS();
    code.v128Bitselect();
    code.localGet(lanes).i32x4Const(0x8000).v128And().i32Const(16).i32x4Shl().v128Or();
  };
  code.localGet(count).i32Const(~7).i32And().localSet(vectorEnd);
  code.while(
    () => code.localGet(index).localGet(vectorEnd).i32LtU(),
    () => {
      code.localGet(data).localGet(index).i32Const(1).i32Shl().i32Add().v128Load().localSet(halves);
      for (const [part, offset] of [
        ['low', 0],
        ['high', 16],
      ] as const) {
        code.localGet(halves);
        if (part === 'low') code.i32x4ExtendLowI16x8U();
        else code.i32x4ExtendHighI16x8U();
        code.localSet(lanes);
        code.localGet(out).localGet(index).i32Const(2).i32Shl().i32Add();
        widen();
        code.v128Store(offset);
      }
      code.addTo(index, 8);
    },
  );
  code.while(
    () => code.localGet(index).localGet(count).i32LtU(),
    () => {
      code.localGet(data).localGet(index).i32Const(1).i32Shl().i32Add().i32Load16U().i32x4Splat().localSet(lanes);
      code.localGet(out).localGet(index).i32Const(2).i32Shl().i32Add();
      widen();
      code.f32x4ExtractLane(0).f32Store();
      code.addTo(index, 1);
    },
  );
}

/** Stores the 16 signed bytes of `bytes` as 16 floats `scale · q` at `out + offset`. */
function storeWidened(code: CodeEmitter, bytes: number, scale: number, out: number, offset: number, halves: [number, number]): void {
  code.localGet(bytes).i16x8ExtendLowI8x16S().localSet(halves[0]);
  code.localGet(bytes).i16x8ExtendHighI8x16S().localSet(halves[1]);
  halves.forEach((half, index) => {
    code
      .localGet(out)
      .localGet(half)
      .i32x4ExtendLowI16x8S()
      .f32x4ConvertI32x4S()
      .localGet(scale)
      .f32x4Mul()
      .v128Store(offset + index * 32);
    code
      .localGet(out)
      .localGet(half)
      .i32x4ExtendHighI16x8S()
      .f32x4ConvertI32x4S()
      .localGet(scale)
      .f32x4Mul()
      .v128Store(offset + index * 32 + 16);
  });
}

function emitDequantizeQ8(code: CodeEmitter): void {
  const [out, data, scales, rows, columns] = [0, 1, 2, 3, 4];
  const row = code.addLocal(i32);
  const k = code.addLocal(i32);
  const vectorEnd = code.addLocal(i32);
  const scalar = code.addLocal(f32);
  const scale = code.addLocal(v128);
  const bytes = code.addLocal(v128);
  const halves: [number, number] = [code.addLocal(v128), code.addLocal(v128)];
  const target = code.addLocal(i32);
  code.localGet(columns).i32Const(~15).i32And().localSet(vectorEnd);
  code.while(
    () => code.localGet(row).localGet(rows).i32LtU(),
    () => {
      code.localGet(scales).localGet(row).i32Const(2).i32Shl().i32Add().f32Load().localTee(scalar).f32x4Splat().localSet(scale);
      code.i32Const(0).localSet(k);
      code.while(
        () => code.localGet(k).localGet(vectorEnd).i32LtU(),
        () => {
          code.localGet(data).localGet(k).i32Add().v128Load().localSet(bytes);
          code.localGet(out).localGet(k).i32Const(2).i32Shl().i32Add().localSet(target);
          storeWidened(code, bytes, scale, target, 0, halves);
          code.addTo(k, 16);
        },
      );
      code.while(
        () => code.localGet(k).localGet(columns).i32LtU(),
        () => {
          code.localGet(out).localGet(k).i32Const(2).i32Shl().i32Add();
          code.localGet(data).localGet(k).i32Add().i32Load8S().f32ConvertI32S().localGet(scalar).f32Mul().f32Store();
          code.addTo(k, 1);
        },
      );
      code.addTo(data, () => code.localGet(columns));
      code.addTo(out, () => code.localGet(columns).i32Const(2).i32Shl());
      code.addTo(row, 1);
    },
  );
}

function emitDequantizeQ4(code: CodeEmitter): void {
  const [out, data, scales, blocks] = [0, 1, 2, 3];
  const block = code.addLocal(i32);
  const scale = code.addLocal(v128);
  const bytes = code.addLocal(v128);
  const low = code.addLocal(v128);
  const high = code.addLocal(v128);
  const halves: [number, number] = [code.addLocal(v128), code.addLocal(v128)];
  code.while(
    () => code.localGet(block).localGet(blocks).i32LtU(),
    () => {
      code.localGet(scales).f32Load().f32x4Splat().localSet(scale);
      code.localGet(data).v128Load().localSet(bytes);
      code.localGet(bytes).i32Const(15).i8x16Splat().v128And().i32Const(8).i8x16Splat().i8x16Sub().localSet(low);
      code.localGet(bytes).i32Const(4).i8x16ShrU().i32Const(8).i8x16Splat().i8x16Sub().localSet(high);
      storeWidened(code, low, scale, out, 0, halves);
      storeWidened(code, high, scale, out, 64, halves);
      code.addTo(scales, 4).addTo(data, 16).addTo(out, 128).addTo(block, 1);
    },
  );
}
