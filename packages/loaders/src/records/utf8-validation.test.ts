import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8Byte } from './utf8-validation.js';

const fatal = new TextDecoder('utf-8', { fatal: true });
const isValid = (bytes: Uint8Array) => {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

describe('firstInvalidUtf8Byte', () => {
  it('finds the first ill-formed byte of known cases', () => {
    expect(firstInvalidUtf8Byte(Buffer.from('héllo 😀'))).toBe(-1);
    expect(firstInvalidUtf8Byte(Uint8Array.of(0x61, 0xff, 0x62))).toBe(1);
    expect(firstInvalidUtf8Byte(Uint8Array.of(0xc0, 0x80))).toBe(0); // overlong NUL
    expect(firstInvalidUtf8Byte(Uint8Array.of(0x61, 0xed, 0xa0, 0x80))).toBe(1); // a UTF-16 surrogate
    expect(firstInvalidUtf8Byte(Uint8Array.of(0xf4, 0x90, 0x80, 0x80))).toBe(0); // above U+10FFFF
    expect(firstInvalidUtf8Byte(Uint8Array.of(0x61, 0x62, 0xe2, 0x82))).toBe(2); // truncated at the end
  });

  it('agrees with the WHATWG decoder on arbitrary bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (bytes) => {
        expect(firstInvalidUtf8Byte(bytes) === -1).toBe(isValid(bytes));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(firstInvalidUtf8Byte(Buffer.from(text, 'utf8'))).toBe(-1);
      }),
    );
  });
});
