import { AlignedTextBuilder, spanOfUnits, type AlignedText } from './hf-offsets-aligned-text.js';

/**
 * Code points that may combine with what comes before them under Unicode normalization or case
 * mapping: marks, conjoining Hangul vowels and finals (and, for the compatibility forms, Hangul
 * compatibility and halfwidth jamo, kana voicing marks). A chunk never starts at one of these.
 */
function joinsPrevious(codePoint: number, character: string): boolean {
  return (
    /\p{M}/u.test(character) ||
    (codePoint >= 0x1160 && codePoint <= 0x11ff) ||
    (codePoint >= 0xd7b0 && codePoint <= 0xd7ff) ||
    (codePoint >= 0x3099 && codePoint <= 0x309c) ||
    (codePoint >= 0x3130 && codePoint <= 0x318f) ||
    (codePoint >= 0xff9e && codePoint <= 0xffdc)
  );
}

function chunkStarts(text: string): number[] {
  const starts: number[] = [];
  let index = 0;
  while (index < text.length) {
    const codePoint = text.codePointAt(index)!;
    const width = codePoint > 0xffff ? 2 : 1;
    if (index === 0 || !joinsPrevious(codePoint, text.slice(index, index + width))) starts.push(index);
    index += width;
  }
  return starts;
}

/**
 * Applies a normalization that works character by character except where characters combine
 * (NFC/NFKC/NFD/NFKD, lowercase, accent stripping) and records, for every output unit, the
 * original characters it came from.
 *
 * The text is cut into chunks (a character with the marks that follow it); each chunk is normalized
 * alone, and the chunks' outputs must concatenate to the normalization of the whole text. Where they
 * do not (a context-dependent rule such as Greek final sigma, or a composition this cut did not
 * foresee) the offending chunk is merged with its neighbours and tried again, down to one chunk for
 * the whole text if need be; so the mapping is always verified, never guessed. A chunk that comes
 * out unchanged maps unit to unit; one that changed maps all its output to its whole span (like a
 * token holding part of a character).
 */
export function normalizeChunked(aligned: AlignedText, normalize: (text: string) => string): AlignedText {
  const source = aligned.text;
  const target = normalize(source);
  if (target === source) return aligned;
  const starts = chunkStarts(source);
  const chunks = starts.map((start, index): [number, number] => [start, starts[index + 1] ?? source.length]);
  const outputs = chunks.map(([start, end]) => normalize(source.slice(start, end)));
  const positions: number[] = [];
  let chunkIndex = 0;
  let position = 0;
  while (chunkIndex < chunks.length) {
    const output = outputs[chunkIndex]!;
    const isLast = chunkIndex === chunks.length - 1;
    if (target.startsWith(output, position) && (!isLast || position + output.length === target.length)) {
      positions[chunkIndex] = position;
      position += output.length;
      chunkIndex += 1;
      continue;
    }
    // Merge with both neighbours: context can come from either side. One chunk always matches
    // (it is the whole text), unless `normalize` is not a function of its input.
    if (chunks.length === 1) throw new Error('normalizeChunked: the normalizer gave two answers for one text');
    const from = Math.max(0, chunkIndex - 1);
    const to = Math.min(chunks.length - 1, chunkIndex + 1);
    const merged: [number, number] = [chunks[from]![0], chunks[to]![1]];
    chunks.splice(from, to - from + 1, merged);
    outputs.splice(from, to - from + 1, normalize(source.slice(merged[0], merged[1])));
    chunkIndex = from;
    position = from === 0 ? 0 : positions[from]!;
  }
  const builder = new AlignedTextBuilder();
  chunks.forEach(([start, end], index) => {
    const output = outputs[index]!;
    if (output === source.slice(start, end)) {
      builder.copy(aligned, start, end);
    } else {
      const [spanStart, spanEnd] = spanOfUnits(aligned, start, end);
      builder.append(output, spanStart, spanEnd);
    }
  });
  return builder.build(aligned.originEnd);
}
