/**
 * The index of the first byte that does not belong to well-formed UTF-8 (overlong forms,
 * surrogates and code points above U+10FFFF are ill-formed, as WHATWG's decoder says), or -1.
 */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index += 1;
      continue;
    }
    let length: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) lower = 0xa0;
      if (lead === 0xed) upper = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) lower = 0x90;
      if (lead === 0xf4) upper = 0x8f;
    } else return index;
    for (let offset = 1; offset < length; offset++) {
      const byte = bytes[index + offset];
      const [low, high] = offset === 1 ? [lower, upper] : [0x80, 0xbf];
      if (byte === undefined || byte < low || byte > high) return index;
    }
    index += length;
  }
  return -1;
}
