/** LEB128, the variable-length integers of the WebAssembly binary format (7 bits a byte, low first). */

/** Unsigned LEB128, for non-negative integers up to 2^53 (indices, sizes, u32 immediates). */
export function unsignedLeb128(value: number): number[] {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`unsignedLeb128: ${value} is not a non-negative safe integer`);
  const bytes: number[] = [];
  let rest = value;
  do {
    const low = rest % 128;
    rest = Math.floor(rest / 128);
    bytes.push(rest === 0 ? low : low | 0x80);
  } while (rest !== 0);
  return bytes;
}

/** Signed LEB128, for the immediates of `i32.const` (any safe integer). */
export function signedLeb128(value: number): number[] {
  if (!Number.isSafeInteger(value)) throw new RangeError(`signedLeb128: ${value} is not a safe integer`);
  const bytes: number[] = [];
  let rest = value;
  for (;;) {
    const low = ((rest % 128) + 128) % 128;
    rest = Math.floor(rest / 128);
    // Done when the rest is pure sign extension of the byte's bit 6.
    const signBitSet = (low & 0x40) !== 0;
    if ((rest === 0 && !signBitSet) || (rest === -1 && signBitSet)) {
      bytes.push(low);
      return bytes;
    }
    bytes.push(low | 0x80);
  }
}
