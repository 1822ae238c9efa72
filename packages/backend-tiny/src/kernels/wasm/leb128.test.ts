import { describe, expect, it } from 'vitest';
import { signedLeb128, unsignedLeb128 } from './leb128.js';

describe('LEB128', () => {
  it.each([
    [0, [0x00]],
    [1, [0x01]],
    [127, [0x7f]],
    [128, [0x80, 0x01]],
    [300, [0xac, 0x02]],
    [16_384, [0x80, 0x80, 0x01]],
    // The example of the DWARF specification and Wikipedia.
    [624_485, [0xe5, 0x8e, 0x26]],
    [2 ** 32 - 1, [0xff, 0xff, 0xff, 0xff, 0x0f]],
  ])('unsigned %i', (value, bytes) => {
    expect(unsignedLeb128(value)).toEqual(bytes);
  });

  it.each([
    [0, [0x00]],
    [1, [0x01]],
    [-1, [0x7f]],
    [63, [0x3f]],
    [64, [0xc0, 0x00]],
    [-64, [0x40]],
    [-65, [0xbf, 0x7f]],
    [-128, [0x80, 0x7f]],
    [-123_456, [0xc0, 0xbb, 0x78]],
    [2 ** 31 - 1, [0xff, 0xff, 0xff, 0xff, 0x07]],
    [-(2 ** 31), [0x80, 0x80, 0x80, 0x80, 0x78]],
  ])('signed %i', (value, bytes) => {
    expect(signedLeb128(value)).toEqual(bytes);
  });

  it('rejects what it cannot encode', () => {
    expect(() => unsignedLeb128(-1)).toThrow(RangeError);
    expect(() => unsignedLeb128(1.5)).toThrow(RangeError);
    expect(() => signedLeb128(Number.NaN)).toThrow(RangeError);
  });
});
