/**
 * Reading and writing little-endian float32 runs at any byte offset. Model files are
 * little-endian; a typed-array view is only allowed at 4-byte-aligned offsets and reads in
 * the platform's order, so anything else is copied through a DataView.
 */

const platformIsLittleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Copies `count` little-endian float32 values starting at `byteOffset` of `bytes`. */
export function readFloat32LittleEndian(bytes: Uint8Array, byteOffset: number, count: number): Float32Array {
  const start = bytes.byteOffset + byteOffset;
  if (platformIsLittleEndian) {
    // Copied as bytes, not through JavaScript numbers, which may canonicalize NaN payloads.
    const values = new Float32Array(count);
    new Uint8Array(values.buffer).set(bytes.subarray(byteOffset, byteOffset + count * 4));
    return values;
  }
  const view = new DataView(bytes.buffer, start, count * 4);
  const values = new Float32Array(count);
  for (let index = 0; index < count; index++) values[index] = view.getFloat32(index * 4, true);
  return values;
}

/** Writes `values` as little-endian float32 into `target` at `byteOffset`. */
export function writeFloat32LittleEndian(target: Uint8Array, byteOffset: number, values: Float32Array): void {
  if (platformIsLittleEndian) {
    target.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), byteOffset);
    return;
  }
  const view = new DataView(target.buffer, target.byteOffset + byteOffset, values.length * 4);
  for (let index = 0; index < values.length; index++) view.setFloat32(index * 4, values[index]!, true);
}
