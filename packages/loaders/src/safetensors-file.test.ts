import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelLoadError } from '@reward-lens/spec';
import { parseSafetensors } from './safetensors.js';
import { openSafetensorsFile } from './safetensors-file.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-safetensors-file-'));
afterAll(() => rm(root, { recursive: true, force: true }));

/** A file with F32, F16 and BF16 tensors at odd offsets, filled with every kind of bit pattern (NaNs, infinities, subnormals). */
function mixedFile(): Uint8Array {
  const specs = [
    { name: 'a.f16', dtype: 'F16', count: 1001, width: 2 },
    { name: 'b.bf16', dtype: 'BF16', count: 777, width: 2 },
    { name: 'c.f32', dtype: 'F32', count: 513, width: 4 },
  ];
  const header: Record<string, unknown> = {};
  let offset = 0;
  for (const spec of specs) {
    header[spec.name] = { dtype: spec.dtype, shape: [spec.count], data_offsets: [offset, offset + spec.count * spec.width] };
    offset += spec.count * spec.width;
  }
  // An odd header length puts the F32 tensor at an unaligned file offset.
  const headerBytes = new TextEncoder().encode(`${JSON.stringify(header)} `);
  const bytes = new Uint8Array(8 + headerBytes.length + offset);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
  bytes.set(headerBytes, 8);
  let state = 12345;
  for (let index = 8 + headerBytes.length; index < bytes.length; index++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

/** `mixedFile()` written under the root as `name`, with the in-memory parser's reading of it to compare with. */
async function writtenMixedFile(name: string) {
  const bytes = mixedFile();
  const path = join(root, name);
  await writeFile(path, bytes);
  return { path, reference: parseSafetensors(bytes, path) };
}

describe('openSafetensorsFile', () => {
  it('reads each dtype exactly as the in-memory parser does, across chunk boundaries', async () => {
    const { path, reference } = await writtenMixedFile('mixed.safetensors');
    for (const chunkBytes of [7, 64, 1000, 16 * 2 ** 20]) {
      const file = await openSafetensorsFile(path, { chunkBytes });
      for (const [name, tensor] of reference) {
        const read = await file.read(name);
        expect(Buffer.from(read.buffer).equals(Buffer.from(tensor.data.buffer)), `${name} with ${chunkBytes}-byte chunks`).toBe(true);
      }
      await file.close();
    }
  });

  it('reads each dtype a piece of whole rows at a time, the pieces together bit for bit the tensor, for any chunk size', async () => {
    const { path, reference } = await writtenMixedFile('rows.safetensors');
    const rowLengths: Record<string, number> = { 'a.f16': 7, 'b.bf16': 7, 'c.f32': 19 };
    for (const chunkBytes of [7, 64, 1000, 16 * 2 ** 20]) {
      const file = await openSafetensorsFile(path, { chunkBytes });
      for (const [name, tensor] of reference) {
        const rowLength = rowLengths[name]!;
        const gathered = new Float32Array(tensor.data.length);
        let expectedRow = 0;
        await file.readRows(name, rowLength, (values, firstRow) => {
          expect(firstRow).toBe(expectedRow);
          expect(values.length % rowLength).toBe(0);
          new Uint8Array(gathered.buffer, firstRow * rowLength * 4, values.byteLength).set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
          expectedRow += values.length / rowLength;
        });
        expect(expectedRow * rowLength).toBe(tensor.data.length);
        expect(Buffer.from(gathered.buffer).equals(Buffer.from(tensor.data.buffer)), `${name} with ${chunkBytes}-byte chunks`).toBe(true);
      }
      await expect(file.readRows('c.f32', 10, () => {})).rejects.toThrow(/is not rows of 10/);
      await file.close();
    }
  });

  it('reads each dtype into the arrays an allocator gives (views at offsets of one buffer), bit for bit, and refuses a wrong length', async () => {
    const { path, reference } = await writtenMixedFile('allocated.safetensors');
    const arena = new ArrayBuffer(64 * 1024);
    let next = 16;
    const allocate = (count: number) => {
      const view = new Float32Array(arena, next, count);
      next += Math.ceil((count * 4) / 16) * 16;
      return view;
    };
    for (const chunkBytes of [7, 1000]) {
      const file = await openSafetensorsFile(path, { chunkBytes });
      for (const [name, tensor] of reference) {
        const read = await file.read(name, allocate);
        expect(read.buffer).toBe(arena);
        expect(
          Buffer.from(read.buffer, read.byteOffset, read.byteLength).equals(Buffer.from(tensor.data.buffer)),
          `${name} with ${chunkBytes}-byte chunks`,
        ).toBe(true);
      }
      // An allocator with no room gives undefined: the tensor gets an array of its own.
      const own = await file.read('c.f32', () => undefined);
      expect(own.buffer).not.toBe(arena);
      await expect(file.read('c.f32', () => new Float32Array(3))).rejects.toThrow(/gave 3 values for a tensor of 513/);
      await file.close();
    }
  });

  it('checks the header against the file size before reading data, and names a truncated file', async () => {
    const bytes = mixedFile();
    const truncated = join(root, 'truncated.safetensors');
    await writeFile(truncated, bytes.subarray(0, bytes.length - 10));
    await expect(openSafetensorsFile(truncated)).rejects.toThrow(/truncated\.safetensors: not a valid safetensors file: tensor "c\.f32" data_offsets/);
    const tooShort = join(root, 'short.safetensors');
    await writeFile(tooShort, Uint8Array.of(1, 2, 3));
    const error = await openSafetensorsFile(tooShort).catch((caught: unknown) => caught);
    expect(ModelLoadError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/shorter than the 8-byte header length/);
  });
});
