import { describe, expect, it } from 'vitest';
import { ModelLoadError } from '@reward-lens/spec';
import { parseSafetensors, parseSafetensorsEntries, parseSafetensorsMetadata, serializeSafetensors } from './safetensors.js';

/** A safetensors file from a header object and raw data bytes, laid out by hand. */
function buildFile(header: unknown, data: number[] | Uint8Array = [], headerText = JSON.stringify(header)): Uint8Array {
  const json = new TextEncoder().encode(headerText);
  const bytes = new Uint8Array(8 + json.length + data.length);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(json.length), true);
  bytes.set(json, 8);
  bytes.set(data, 8 + json.length);
  return bytes;
}

/** Little-endian bytes of 16-bit words. */
const words = (values: number[]) => values.flatMap((value) => [value & 0xff, value >> 8]);

describe('safetensors', () => {
  it('writes the reference layout: name order, header padded with spaces to 8 bytes', () => {
    const bytes = serializeSafetensors(new Map([['a', { shape: [1], data: new Float32Array([0]) }]]));
    const expectedHeader = '{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}';
    expect(expectedHeader.length).toBe(54);
    expect([...bytes.subarray(0, 8)]).toEqual([56, 0, 0, 0, 0, 0, 0, 0]);
    expect(new TextDecoder().decode(bytes.subarray(8, 64))).toBe(`${expectedHeader}  `);
    expect([...bytes.subarray(64)]).toEqual([0, 0, 0, 0]);
  });

  it('round-trips float32 tensors and metadata', () => {
    const tensors = new Map([
      ['model.norm.weight', { shape: [3], data: new Float32Array([1, -2.5, 3e-39]) }],
      ['lm_head.weight', { shape: [2, 2], data: new Float32Array([Infinity, -0, 65504, Math.PI]) }],
      ['empty', { shape: [0, 4], data: new Float32Array(0) }],
    ]);
    const bytes = serializeSafetensors(tensors, { format: 'pt' });
    expect(Number(new DataView(bytes.buffer).getBigUint64(0, true)) % 8).toBe(0);
    const parsed = parseSafetensors(bytes, 'round.safetensors');
    expect([...parsed.keys()].sort()).toEqual(['empty', 'lm_head.weight', 'model.norm.weight']);
    for (const [name, tensor] of tensors) {
      expect(parsed.get(name)).toEqual({ dtype: 'F32', shape: tensor.shape, data: tensor.data });
    }
    expect(parseSafetensorsMetadata(bytes, 'round.safetensors')).toEqual({ format: 'pt' });
    expect(parseSafetensorsEntries(bytes, 'round.safetensors').get('lm_head.weight')).toEqual({ dtype: 'F32', shape: [2, 2], dataOffsets: [0, 16] });
  });

  it('widens F16, subnormals, infinities and NaN included', () => {
    const halves = [0x3c00, 0xc100, 0x7bff, 0x0001, 0x03ff, 0x7c00, 0xfc00, 0x7e00, 0x8000, 0x3555];
    const bytes = buildFile({ half: { dtype: 'F16', shape: [halves.length], data_offsets: [0, 2 * halves.length] } }, words(halves));
    const { data, dtype } = parseSafetensors(bytes, 'half.safetensors').get('half')!;
    expect(dtype).toBe('F16');
    expect([...data.subarray(0, 7)]).toEqual([1, -2.5, 65504, 2 ** -24, 1023 * 2 ** -24, Infinity, -Infinity]);
    expect(data[7]).toBeNaN();
    expect(Object.is(data[8], -0)).toBe(true);
    expect(data[9]).toBe(0.333251953125);
  });

  it('widens BF16, subnormals, infinities and NaN included', () => {
    const brains = [0x3f80, 0xc020, 0x477f, 0x0001, 0x7f80, 0xff80, 0x7fc0];
    const bytes = buildFile({ brain: { dtype: 'BF16', shape: [brains.length], data_offsets: [0, 2 * brains.length] } }, words(brains));
    const { data } = parseSafetensors(bytes, 'brain.safetensors').get('brain')!;
    expect([...data.subarray(0, 6)]).toEqual([1, -2.5, 65280, 2 ** -133, Infinity, -Infinity]);
    expect(data[6]).toBeNaN();
  });

  it('reads F32 data at an offset that is not a multiple of 4', () => {
    // A 9-byte header puts the data at byte 17.
    const bytes = buildFile(null, [0, 0, 0x80, 0x3f], '{"x":{"dtype":"F32","shape":[],"data_offsets":[0,4]}}'.padEnd(9));
    expect(parseSafetensors(bytes, 'odd.safetensors').get('x')!.data).toEqual(new Float32Array([1]));
  });

  it('skips the tensors `include` leaves out', () => {
    const bytes = serializeSafetensors(
      new Map([
        ['a', { shape: [1], data: new Float32Array([1]) }],
        ['b', { shape: [1], data: new Float32Array([2]) }],
      ]),
    );
    expect([...parseSafetensors(bytes, 'two.safetensors', { include: (name) => name === 'b' }).keys()]).toEqual(['b']);
  });

  const tensor = (dtype: string, shape: number[], offsets: number[]) => ({ dtype, shape, data_offsets: offsets });
  const corruptions: Array<[string, Uint8Array, RegExp]> = [
    ['a file shorter than 8 bytes', new Uint8Array(5), /5 bytes is shorter than the 8-byte header length/],
    ['a header length past the end', buildFile({}).subarray(0, 9), /header length 2 runs past the end of the 9-byte file/],
    ['an absurd header length', Uint8Array.from([0, 0, 0, 0, 0, 1, 0, 0, 123]), /above the 100 MB limit/],
    // 2^62, said exactly (as a Number it would print 4611686018427388000).
    ['a header length past 2^53', Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0x40, 123]), /header length 4611686018427387904 is above the 100 MB limit/],
    ['a header that is not JSON', buildFile(null, [], '{"a": '), /the header is not JSON/],
    ['a header that is not an object', buildFile([1, 2]), /the header is not a JSON object/],
    [
      'offsets past the data',
      buildFile({ a: tensor('F32', [2], [0, 8]) }, [0, 0, 0, 0]),
      /tensor "a" data_offsets \[0, 8\] fall outside the 4-byte data section/,
    ],
    ['offsets in reverse', buildFile({ a: tensor('F32', [0], [4, 0]) }, [0, 0, 0, 0]), /tensor "a" data_offsets \[4, 0\]/],
    ['overlapping tensors', buildFile({ a: tensor('F32', [2], [0, 8]), b: tensor('F32', [1], [4, 8]) }, new Uint8Array(8)), /tensors "a" and "b" overlap/],
    [
      'a size that disagrees with dtype and shape',
      buildFile({ a: tensor('F16', [3], [0, 4]) }, new Uint8Array(4)),
      /tensor "a" spans 4 bytes, but F16 \[3\] needs 6/,
    ],
    ['an I64 tensor', buildFile({ ids: tensor('I64', [1], [0, 8]) }, new Uint8Array(8)), /tensor "ids" has dtype I64, which reward-lens does not load/],
    ['an F64 tensor', buildFile({ w: tensor('F64', [1], [0, 8]) }, new Uint8Array(8)), /tensor "w" has dtype F64/],
    ['an I8 tensor', buildFile({ q: tensor('I8', [4], [0, 4]) }, new Uint8Array(4)), /tensor "q" has dtype I8/],
    ['a missing shape', buildFile({ a: { dtype: 'F32', data_offsets: [0, 4] } }, new Uint8Array(4)), /tensor "a" has no valid shape/],
    ['metadata that is not strings', buildFile({ __metadata__: { step: 3 } }), /__metadata__ "step" is not a string/],
  ];
  it.each(corruptions)('rejects %s with a ModelLoadError naming the file', (_, bytes, message) => {
    let caught: unknown;
    try {
      parseSafetensors(bytes, 'broken.safetensors');
    } catch (error) {
      caught = error;
    }
    expect(ModelLoadError.isInstance(caught)).toBe(true);
    expect((caught as ModelLoadError).file).toBe('broken.safetensors');
    expect((caught as Error).message).toMatch(/^broken\.safetensors: not a valid safetensors file: /);
    expect((caught as Error).message).toMatch(message);
  });

  it('refuses to write a tensor whose data does not fit its shape', () => {
    expect(() => serializeSafetensors(new Map([['a', { shape: [2, 2], data: new Float32Array(3) }]]))).toThrow(
      /tensor "a" has 3 values, shape \[2, 2\] needs 4/,
    );
  });
});
