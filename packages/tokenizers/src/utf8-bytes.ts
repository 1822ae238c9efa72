/**
 * UTF-8 with two additions a byte-level tokenizer needs: per byte, the UTF-16 span of the character
 * it belongs to (so token offsets can be exact), and lone surrogates encoded as their 3-byte
 * WTF-8 form instead of U+FFFD, so that `decodeUtf8(encodeUtf8(text).bytes) === text` holds for
 * every JavaScript string, not only well-formed ones.
 */

export interface Utf8Encoding {
  bytes: Uint8Array;
  /** Per byte, the start (UTF-16 code units, shifted by `baseOffset`) of the character holding it. */
  charStart: Int32Array;
  /** Per byte, the end of the character holding it. */
  charEnd: Int32Array;
}

/** Encodes `text.slice(start, end)`; spans are in the coordinates of the whole `text`. */
export function encodeUtf8WithSpans(text: string, start = 0, end = text.length): Utf8Encoding {
  // Three bytes per code unit is the worst case (a surrogate pair is 4 bytes for 2 units).
  const capacity = (end - start) * 3;
  const bytes = new Uint8Array(capacity);
  const charStart = new Int32Array(capacity);
  const charEnd = new Int32Array(capacity);
  let length = 0;
  let index = start;
  while (index < end) {
    const unit = text.charCodeAt(index);
    let codePoint = unit;
    let unitCount = 1;
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < end) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        codePoint = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
        unitCount = 2;
      }
    }
    const byteStart = length;
    if (codePoint < 0x80) {
      bytes[length++] = codePoint;
    } else if (codePoint < 0x800) {
      bytes[length++] = 0xc0 | (codePoint >> 6);
      bytes[length++] = 0x80 | (codePoint & 0x3f);
    } else if (codePoint < 0x10000) {
      // Lone surrogates land here too: their WTF-8 form is the plain 3-byte pattern.
      bytes[length++] = 0xe0 | (codePoint >> 12);
      bytes[length++] = 0x80 | ((codePoint >> 6) & 0x3f);
      bytes[length++] = 0x80 | (codePoint & 0x3f);
    } else {
      bytes[length++] = 0xf0 | (codePoint >> 18);
      bytes[length++] = 0x80 | ((codePoint >> 12) & 0x3f);
      bytes[length++] = 0x80 | ((codePoint >> 6) & 0x3f);
      bytes[length++] = 0x80 | (codePoint & 0x3f);
    }
    charStart.fill(index, byteStart, length);
    charEnd.fill(index + unitCount, byteStart, length);
    index += unitCount;
  }
  return {
    bytes: bytes.subarray(0, length),
    charStart: charStart.subarray(0, length),
    charEnd: charEnd.subarray(0, length),
  };
}

/** The UTF-8 (WTF-8 for lone surrogates) bytes of `text`. */
export function encodeUtf8(text: string): Uint8Array {
  return encodeUtf8WithSpans(text).bytes;
}

const replacementCharacter = 0xfffd;

/**
 * Decodes UTF-8, also accepting encoded surrogates (WTF-8). A byte that starts no valid sequence
 * becomes U+FFFD and decoding resumes at the next byte, so any id sequence decodes to something.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  const units: number[] = [];
  let index = 0;
  while (index < bytes.length) {
    const first = bytes[index]!;
    if (first < 0x80) {
      units.push(first);
      index += 1;
      continue;
    }
    const sequence = readMultiByteSequence(bytes, index, first);
    if (sequence === null) {
      units.push(replacementCharacter);
      index += 1;
      continue;
    }
    const { codePoint, length } = sequence;
    if (codePoint >= 0x10000) {
      const offset = codePoint - 0x10000;
      units.push(0xd800 + (offset >> 10), 0xdc00 + (offset & 0x3ff));
    } else {
      units.push(codePoint);
    }
    index += length;
  }
  return unitsToString(units);
}

function readMultiByteSequence(bytes: Uint8Array, index: number, first: number): { codePoint: number; length: number } | null {
  let length: number;
  let codePoint: number;
  let minimum: number;
  if (first >= 0xc2 && first <= 0xdf) {
    length = 2;
    codePoint = first & 0x1f;
    minimum = 0x80;
  } else if (first >= 0xe0 && first <= 0xef) {
    length = 3;
    codePoint = first & 0x0f;
    minimum = 0x800;
  } else if (first >= 0xf0 && first <= 0xf4) {
    length = 4;
    codePoint = first & 0x07;
    minimum = 0x10000;
  } else {
    return null;
  }
  if (index + length > bytes.length) return null;
  for (let offset = 1; offset < length; offset += 1) {
    const continuation = bytes[index + offset]!;
    if ((continuation & 0xc0) !== 0x80) return null;
    codePoint = (codePoint << 6) | (continuation & 0x3f);
  }
  if (codePoint < minimum || codePoint > 0x10ffff) return null;
  return { codePoint, length };
}

function unitsToString(units: number[]): string {
  // String.fromCharCode(...units) overflows the call stack on long texts: go in slices.
  const sliceLength = 8192;
  let text = '';
  for (let start = 0; start < units.length; start += sliceLength) {
    text += String.fromCharCode(...units.slice(start, start + sliceLength));
  }
  return text;
}
