import { describe, expect, it } from 'vitest';
import { deferredFloatRows, deferredTensor, materializeTensor, tensorBytes, withoutDeferredBytes } from './deferred-bytes.js';
import { DataType, decodeModelProto, encodeModelProto } from './onnx.js';

describe('deferred initializer bytes', () => {
  const rows = deferredFloatRows(
    5,
    3,
    (first, count, out) => {
      for (let index = 0; index < count * 3; index++) out[index] = first * 3 + index + 0.5;
    },
    2,
  );

  it('float rows come in pieces of whole rows and add up to the declared length', () => {
    const pieces = [...rows.pieces()];
    expect(pieces.map((piece) => piece.byteLength)).toEqual([24, 24, 12]);
    expect(rows.byteLength).toBe(60);
    const values = new Float32Array(Uint8Array.from(pieces.flatMap((piece) => [...piece])).buffer);
    expect([...values]).toEqual(Array.from({ length: 15 }, (_, index) => index + 0.5));
  });

  it('a deferred tensor encodes as the same bytes as the held one, and drops its deferral when its data moves', () => {
    const values = Float32Array.from({ length: 15 }, (_, index) => index + 0.5);
    const held = { name: 'w', dataType: DataType.FLOAT, dims: [5, 3], rawData: new Uint8Array(values.buffer) };
    const later = deferredTensor({ name: 'w', dataType: DataType.FLOAT, dims: [5, 3] }, rows);
    expect(later.rawData).toBeNull();
    expect(tensorBytes(later)?.byteLength).toBe(60);
    expect(materializeTensor(later)).toEqual(held);
    const model = (initializer: (typeof held)[]) => ({ irVersion: 8, graph: { name: 'g', initializer } });
    expect(encodeModelProto(model([later as typeof held]))).toEqual(encodeModelProto(model([held])));
    expect(decodeModelProto(encodeModelProto(model([later as typeof held]))).graph?.initializer?.[0]?.rawData).toEqual(held.rawData);
    expect(tensorBytes(withoutDeferredBytes(later))).toBeUndefined();
  });

  it('refuses a deferral that gives other than it declared', () => {
    const wrong = deferredTensor({ name: 'w', dataType: DataType.FLOAT, dims: [4] }, { byteLength: 12, pieces: () => [new Uint8Array(16)] });
    expect(() => materializeTensor(wrong)).toThrow(/gave 16 bytes, not the 12/);
  });
});
