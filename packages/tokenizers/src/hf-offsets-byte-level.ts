/**
 * GPT-2's byte-to-unicode table, which byte-level BPE vocabularies (GPT-2, Qwen2/Qwen3, Llama-3)
 * are spelled in: printable Latin-1 bytes stand for themselves, the other 68 bytes for U+0100
 * onwards, in byte order (so a space is `Ġ`, U+0120, and a newline `Ċ`, U+010A).
 */
const characterOfByte: string[] = (() => {
  const printable = (byte: number) => (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff);
  const table: string[] = [];
  let shifted = 0;
  for (let byte = 0; byte < 256; byte += 1) {
    table.push(String.fromCharCode(printable(byte) ? byte : 256 + shifted++));
  }
  return table;
})();

const byteOfCharacter = new Map(characterOfByte.map((character, byte) => [character, byte]));

/** How byte-level vocabularies spell a space. */
export const byteLevelSpace = characterOfByte[0x20]!;

/** The byte a byte-level character stands for, or `undefined` for a character outside the table. */
export function byteOfByteLevelCharacter(character: string): number | undefined {
  return byteOfCharacter.get(character);
}

/** Spells bytes as a byte-level vocabulary does. */
export function spellBytesByteLevel(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += characterOfByte[byte]!;
  return text;
}

/** The bytes a byte-level token stands for, or `null` when it holds a character outside the table. */
export function byteLevelTokenBytes(token: string): Uint8Array | null {
  const bytes = new Uint8Array(token.length);
  for (let index = 0; index < token.length; index += 1) {
    const byte = byteOfCharacter.get(token[index]!);
    if (byte === undefined) return null;
    bytes[index] = byte;
  }
  return bytes;
}

/**
 * The UTF-8 bytes of the code point at `index` (a lone surrogate as U+FFFD, as TextEncoder and the
 * library do), written to `out`; returns how many.
 */
export function utf8BytesAt(text: string, index: number, out: Uint8Array): number {
  let codePoint = text.codePointAt(index)!;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) codePoint = 0xfffd;
  if (codePoint < 0x80) {
    out[0] = codePoint;
    return 1;
  }
  if (codePoint < 0x800) {
    out[0] = 0xc0 | (codePoint >> 6);
    out[1] = 0x80 | (codePoint & 0x3f);
    return 2;
  }
  if (codePoint < 0x10000) {
    out[0] = 0xe0 | (codePoint >> 12);
    out[1] = 0x80 | ((codePoint >> 6) & 0x3f);
    out[2] = 0x80 | (codePoint & 0x3f);
    return 3;
  }
  out[0] = 0xf0 | (codePoint >> 18);
  out[1] = 0x80 | ((codePoint >> 12) & 0x3f);
  out[2] = 0x80 | ((codePoint >> 6) & 0x3f);
  out[3] = 0x80 | (codePoint & 0x3f);
  return 4;
}
