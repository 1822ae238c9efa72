import { signedLeb128, unsignedLeb128 } from './leb128.js';

/** The value types' codes in the binary format. */
export const valueType = { i32: 0x7f, i64: 0x7e, f32: 0x7d, f64: 0x7c, v128: 0x7b } as const;
export type ValueType = (typeof valueType)[keyof typeof valueType];

const blockTypeEmpty = 0x40;
const simdPrefix = 0xfd;

/**
 * Writes one function body. Each method appends one instruction (or a structured block) and
 * returns the emitter, so code reads in stack order: `code.localGet(a).localGet(b).i32Add()`.
 * Alignment hints are log2 of the natural alignment.
 */
export class CodeEmitter {
  readonly bytes: number[] = [];
  readonly locals: ValueType[] = [];
  readonly #parameterCount: number;

  constructor(parameterCount: number) {
    this.#parameterCount = parameterCount;
  }

  addLocal(type: ValueType): number {
    return this.#parameterCount + this.locals.push(type) - 1;
  }

  emit(...bytes: number[]): this {
    this.bytes.push(...bytes);
    return this;
  }

  // Control. `loop` and `block` take the body as a callback so that nesting mirrors the wasm.
  block(body: () => void): this {
    this.emit(0x02, blockTypeEmpty);
    body();
    return this.emit(0x0b);
  }
  loop(body: () => void): this {
    this.emit(0x03, blockTypeEmpty);
    body();
    return this.emit(0x0b);
  }
  /** Pops an i32 condition; runs `then` when it is non-zero. */
  if(then: () => void): this {
    this.emit(0x04, blockTypeEmpty);
    then();
    return this.emit(0x0b);
  }
  /** Pops an i32 condition; runs `then` when it is non-zero and `otherwise` when it is zero. */
  ifElse(then: () => void, otherwise: () => void): this {
    this.emit(0x04, blockTypeEmpty);
    then();
    this.emit(0x05);
    otherwise();
    return this.emit(0x0b);
  }
  /** `while (condition) body`; `condition` pushes an i32. */
  while(condition: () => void, body: () => void): this {
    return this.block(() => {
      this.loop(() => {
        condition();
        this.i32Eqz().brIf(1);
        body();
        this.br(0);
      });
    });
  }
  /** `local += amount` for an i32 local; `amount` is a constant or code that pushes an i32. */
  addTo(local: number, amount: number | (() => void)): this {
    this.localGet(local);
    if (typeof amount === 'number') this.i32Const(amount);
    else amount();
    return this.i32Add().localSet(local);
  }
  /** Branches to the enclosing block/loop `depth` levels out (0 = innermost). */
  br(depth: number): this {
    return this.emit(0x0c, ...unsignedLeb128(depth));
  }
  brIf(depth: number): this {
    return this.emit(0x0d, ...unsignedLeb128(depth));
  }
  call(functionIndex: number): this {
    return this.emit(0x10, ...unsignedLeb128(functionIndex));
  }

  /** Pops `a`, `b`, an i32 condition; pushes `condition ? a : b`. */
  select(): this {
    return this.emit(0x1b);
  }

  // Variables.
  localGet(index: number): this {
    return this.emit(0x20, ...unsignedLeb128(index));
  }
  localSet(index: number): this {
    return this.emit(0x21, ...unsignedLeb128(index));
  }
  localTee(index: number): this {
    return this.emit(0x22, ...unsignedLeb128(index));
  }

  // Memory.
  /** `offset` is the memarg's constant byte offset, added to the popped address. */
  f32Load(offset = 0): this {
    return this.emit(0x2a, 2, ...unsignedLeb128(offset));
  }
  f32Store(offset = 0): this {
    return this.emit(0x38, 2, ...unsignedLeb128(offset));
  }
  /** Loads 16 bits, zero-extended to i32. */
  i32Load16U(): this {
    return this.emit(0x2f, 1, 0);
  }
  i32Store(): this {
    return this.emit(0x36, 2, 0);
  }
  /** Loads one signed byte, sign-extended to i32. */
  i32Load8S(): this {
    return this.emit(0x2c, 0, 0);
  }
  /** Loads 16 bits, sign-extended to i32. */
  i32Load16S(): this {
    return this.emit(0x2e, 1, 0);
  }
  /** Stores the low 16 bits of an i32. */
  i32Store16(): this {
    return this.emit(0x3b, 1, 0);
  }

  // Numbers.
  i32Const(value: number): this {
    return this.emit(0x41, ...signedLeb128(value | 0));
  }
  i32Eqz(): this {
    return this.emit(0x45);
  }
  i32Ne(): this {
    return this.emit(0x47);
  }
  i32LtU(): this {
    return this.emit(0x49);
  }
  i32LeU(): this {
    return this.emit(0x4d);
  }
  /** Pops `a`, `b`; pushes `a >= b` (false when either is NaN). */
  f32Ge(): this {
    return this.emit(0x60);
  }
  i32Add(): this {
    return this.emit(0x6a);
  }
  i32Sub(): this {
    return this.emit(0x6b);
  }
  i32Mul(): this {
    return this.emit(0x6c);
  }
  i32RemU(): this {
    return this.emit(0x70);
  }
  i32And(): this {
    return this.emit(0x71);
  }
  i32Or(): this {
    return this.emit(0x72);
  }
  i32Shl(): this {
    return this.emit(0x74);
  }
  /** Pops an i32; pushes it as the nearest f32. */
  f32ConvertI32S(): this {
    return this.emit(0xb2);
  }
  f32Const(value: number): this {
    return this.emit(0x43, ...new Uint8Array(Float32Array.of(value).buffer));
  }
  f32Add(): this {
    return this.emit(0x92);
  }
  f32Mul(): this {
    return this.emit(0x94);
  }
  f32Div(): this {
    return this.emit(0x95);
  }
  f32Abs(): this {
    return this.emit(0x8b);
  }
  /** The larger, NaN when either is NaN. */
  f32Max(): this {
    return this.emit(0x97);
  }
  /** Round to the nearest integer, ties to even. */
  f32Nearest(): this {
    return this.emit(0x90);
  }
  /** Toward zero, saturating at the i32 range; NaN gives 0. */
  i32TruncSatF32S(): this {
    return this.emit(0xfc, 0x00);
  }

  // SIMD (0xfd prefix, opcode as unsigned LEB128).
  #simd(opcode: number, ...immediates: number[]): this {
    return this.emit(simdPrefix, ...unsignedLeb128(opcode), ...immediates);
  }
  /** `offset` is the memarg's constant byte offset, added to the popped address. */
  v128Load(offset = 0): this {
    return this.#simd(0x00, 4, ...unsignedLeb128(offset));
  }
  /** Loads 8 signed bytes, each sign-extended to a 16-bit lane. */
  v128Load8x8S(offset = 0): this {
    return this.#simd(0x01, 3, ...unsignedLeb128(offset));
  }
  /** Loads one f32 into all four lanes. */
  v128Load32Splat(offset = 0): this {
    return this.#simd(0x09, 2, ...unsignedLeb128(offset));
  }
  v128Store(offset = 0): this {
    return this.#simd(0x0b, 4, ...unsignedLeb128(offset));
  }
  v128Const(bytes: Uint8Array): this {
    if (bytes.length !== 16) throw new RangeError('v128.const takes 16 bytes');
    return this.#simd(0x0c, ...bytes);
  }
  f32x4Const(value: number): this {
    return this.v128Const(new Uint8Array(new Float32Array(4).fill(value).buffer));
  }
  i32x4Const(value: number): this {
    return this.v128Const(new Uint8Array(new Int32Array(4).fill(value).buffer));
  }
  /** Picks 16 bytes out of the 32 of two vectors (indices 0..15 first operand, 16..31 second). */
  i8x16Shuffle(lanes: readonly number[]): this {
    if (lanes.length !== 16 || lanes.some((lane) => lane < 0 || lane > 31)) throw new RangeError('i8x16.shuffle takes 16 lane indices in 0..31');
    return this.#simd(0x0d, ...lanes);
  }
  /** `i8x16.shuffle` expressed in 32-bit lanes (indices 0..3 first operand, 4..7 second). */
  f32x4Shuffle(lanes: readonly [number, number, number, number]): this {
    return this.i8x16Shuffle(lanes.flatMap((lane) => [lane * 4, lane * 4 + 1, lane * 4 + 2, lane * 4 + 3]));
  }
  f32x4Splat(): this {
    return this.#simd(0x13);
  }
  i32x4Splat(): this {
    return this.#simd(0x11);
  }
  i8x16Splat(): this {
    return this.#simd(0x0f);
  }
  v128And(): this {
    return this.#simd(0x4e);
  }
  /** Pops a vector and an i32 shift count. */
  i8x16ShrU(): this {
    return this.#simd(0x6d);
  }
  i8x16Sub(): this {
    return this.#simd(0x71);
  }
  /** The low (or high) 8 signed bytes, widened to 16-bit lanes. */
  i16x8ExtendLowI8x16S(): this {
    return this.#simd(0x87);
  }
  i16x8ExtendHighI8x16S(): this {
    return this.#simd(0x88);
  }
  /** The low (or high) 4 signed 16-bit lanes, widened to 32-bit lanes. */
  i32x4ExtendLowI16x8S(): this {
    return this.#simd(0xa7);
  }
  i32x4ExtendHighI16x8S(): this {
    return this.#simd(0xa8);
  }
  /** The low (or high) 4 unsigned 16-bit lanes, widened to 32-bit lanes. */
  i32x4ExtendLowI16x8U(): this {
    return this.#simd(0xa9);
  }
  i32x4ExtendHighI16x8U(): this {
    return this.#simd(0xaa);
  }
  /** Lane-wise `a > b` (signed): all ones where true. */
  i32x4GtS(): this {
    return this.#simd(0x3b);
  }
  v128Or(): this {
    return this.#simd(0x50);
  }
  /** Pops `a`, `b`, `mask`: `(a & mask) | (b & ~mask)`. */
  v128Bitselect(): this {
    return this.#simd(0x52);
  }
  f32x4ConvertI32x4S(): this {
    return this.#simd(0xfa);
  }
  f32x4ExtractLane(lane: number): this {
    return this.#simd(0x1f, lane);
  }
  i32x4ExtractLane(lane: number): this {
    return this.#simd(0x1b, lane);
  }
  /** Pairs of signed 16-bit lanes multiplied and added: `out[i] = a[2i]·b[2i] + a[2i+1]·b[2i+1]` in 32 bits. */
  i32x4DotI16x8S(): this {
    return this.#simd(0xba);
  }
  /** Two vectors of i32 lanes narrowed to one of 16-bit lanes, saturating (the first's lanes low). */
  i16x8NarrowI32x4S(): this {
    return this.#simd(0x85);
  }
  /** Round to the nearest integer, ties to even, lane-wise. */
  f32x4Nearest(): this {
    return this.#simd(0x6a);
  }
  /** Toward zero, saturating at the i32 range; NaN gives 0. */
  i32x4TruncSatF32x4S(): this {
    return this.#simd(0xf8);
  }
  f32x4Abs(): this {
    return this.#simd(0xe0);
  }
  /** The larger, lane-wise; NaN when either is NaN. */
  f32x4Max(): this {
    return this.#simd(0xe9);
  }
  i32x4Shl(): this {
    return this.#simd(0xab);
  }
  i32x4Add(): this {
    return this.#simd(0xae);
  }
  f32x4Neg(): this {
    return this.#simd(0xe1);
  }
  f32x4Add(): this {
    return this.#simd(0xe4);
  }
  f32x4Sub(): this {
    return this.#simd(0xe5);
  }
  f32x4Mul(): this {
    return this.#simd(0xe6);
  }
  f32x4Div(): this {
    return this.#simd(0xe7);
  }
  /** `b < a ? b : a`, lane-wise: one instruction on x86 (unlike `f32x4.min`). */
  f32x4Pmin(): this {
    return this.#simd(0xea);
  }
  /** `a < b ? b : a`, lane-wise. */
  f32x4Pmax(): this {
    return this.#simd(0xeb);
  }
}
