import { float16ToFloat32Bits } from '@reward-lens/spec/internal';
import { describe, expect, it } from 'vitest';
import { toFloat16Model } from './float16-model.js';
import { DataType } from './onnx.js';

const halves = (raw: Uint8Array) => Array.from(new Uint16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength)));
const widened = (bits: number) => new Float32Array(Uint32Array.of(float16ToFloat32Bits(bits)).buffer)[0];

describe('toFloat16Model', () => {
  it('rounds every float to the nearest half, clamps finite values past ±65504, and leaves other types alone', () => {
    const floats = Float32Array.of(1, 0.1, -3.4028234663852886e38, 70000, Number.NEGATIVE_INFINITY);
    const model = toFloat16Model({
      graph: {
        initializer: [
          { name: 'w', dataType: DataType.FLOAT, dims: [5], rawData: new Uint8Array(floats.buffer) },
          { name: 'ids', dataType: DataType.INT64, dims: [1], rawData: new Uint8Array(8) },
        ],
        node: [
          { opType: 'Cast', input: ['x'], output: ['y'], attribute: [{ name: 'to', i: DataType.FLOAT }] },
          { opType: 'Cast', input: ['m'], output: ['b'], attribute: [{ name: 'to', i: DataType.BOOL }] },
          { opType: 'Constant', output: ['c'], attribute: [{ name: 'value', t: { dataType: DataType.FLOAT, dims: [], floatData: [2.5] } }] },
        ],
        input: [
          { name: 'x', type: { tensorType: { elemType: DataType.FLOAT } } },
          { name: 'm', type: { tensorType: { elemType: DataType.INT64 } } },
        ],
        output: [{ name: 'y', type: { tensorType: { elemType: DataType.FLOAT } } }],
      },
    });
    const [w, ids] = model.graph!.initializer!;
    expect(w!.dataType).toBe(DataType.FLOAT16);
    expect(halves(w!.rawData!).map(widened)).toEqual([1, 0.0999755859375, -65504, 65504, Number.NEGATIVE_INFINITY]);
    expect(ids!.dataType).toBe(DataType.INT64);
    const [toFloat, toBool, constant] = model.graph!.node!;
    expect(toFloat!.attribute![0]!.i).toBe(DataType.FLOAT16);
    expect(toBool!.attribute![0]!.i).toBe(DataType.BOOL);
    expect(constant!.attribute![0]!.t!.dataType).toBe(DataType.FLOAT16);
    expect(halves(constant!.attribute![0]!.t!.rawData!).map(widened)).toEqual([2.5]);
    expect(model.graph!.input!.map((value) => value.type!.tensorType!.elemType)).toEqual([DataType.FLOAT16, DataType.INT64]);
    expect(model.graph!.output![0]!.type!.tensorType!.elemType).toBe(DataType.FLOAT16);
  });
});
