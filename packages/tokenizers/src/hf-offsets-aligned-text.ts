/**
 * Text that remembers where each of its UTF-16 code units came from in an original text. Every
 * step that rewrites text on the way to the tokenizer's model (a normalizer, a pre-tokenizer's
 * spelling) maps one aligned text to another, so token offsets can be read back in the original's
 * coordinates however many steps ran.
 */
export interface AlignedText {
  readonly text: string;
  /** Per code unit of `text`, where its source starts in the original. */
  readonly starts: Int32Array;
  /** Per code unit, where its source ends. Units inserted from nowhere (a dummy prefix) have `start === end`. */
  readonly ends: Int32Array;
  /** The original position just after this text: where something inserted at its end is anchored. */
  readonly originEnd: number;
}

/** `original.slice(start, end)`, each unit mapped to itself. */
export function identityAligned(original: string, start: number, end: number): AlignedText {
  const length = end - start;
  const starts = new Int32Array(length);
  const ends = new Int32Array(length);
  for (let index = 0; index < length; index += 1) {
    starts[index] = start + index;
    ends[index] = start + index + 1;
  }
  return { text: original.slice(start, end), starts, ends, originEnd: end };
}

/** The original position a unit inserted before `index` is anchored at. */
export function anchorAt(aligned: AlignedText, index: number): number {
  return index < aligned.text.length ? aligned.starts[index]! : aligned.originEnd;
}

export function sliceAligned(aligned: AlignedText, from: number, to: number): AlignedText {
  return {
    text: aligned.text.slice(from, to),
    starts: aligned.starts.slice(from, to),
    ends: aligned.ends.slice(from, to),
    originEnd: anchorAt(aligned, to),
  };
}

/**
 * The smallest original span covering units `[from, to)`, inserted units aside; when every unit
 * was inserted, the empty span at the first one's anchor.
 */
export function spanOfUnits(aligned: AlignedText, from: number, to: number): [number, number] {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (let index = from; index < to; index += 1) {
    const unitStart = aligned.starts[index]!;
    const unitEnd = aligned.ends[index]!;
    if (unitStart === unitEnd) continue;
    if (unitStart < start) start = unitStart;
    if (unitEnd > end) end = unitEnd;
  }
  if (start === Number.POSITIVE_INFINITY) {
    const anchor = anchorAt(aligned, from);
    return [anchor, anchor];
  }
  return [start, end];
}

/** Builds an aligned text piece by piece, in order. */
export class AlignedTextBuilder {
  private text = '';
  private starts: number[] = [];
  private ends: number[] = [];

  /** Copies units `[from, to)` of `source` with their spans. */
  copy(source: AlignedText, from: number, to: number): void {
    this.text += source.text.slice(from, to);
    for (let index = from; index < to; index += 1) {
      this.starts.push(source.starts[index]!);
      this.ends.push(source.ends[index]!);
    }
  }

  /** Appends `text`, every unit of it mapped to `[start, end)` (`start === end` for an insertion). */
  append(text: string, start: number, end: number): void {
    this.text += text;
    for (let index = 0; index < text.length; index += 1) {
      this.starts.push(start);
      this.ends.push(end);
    }
  }

  build(originEnd: number): AlignedText {
    return { text: this.text, starts: Int32Array.from(this.starts), ends: Int32Array.from(this.ends), originEnd };
  }
}

/** Inserts `text` (mapped to no source character) before unit `index`. */
export function insertAligned(aligned: AlignedText, index: number, text: string): AlignedText {
  const builder = new AlignedTextBuilder();
  const anchor = anchorAt(aligned, index);
  builder.copy(aligned, 0, index);
  builder.append(text, anchor, anchor);
  builder.copy(aligned, index, aligned.text.length);
  return builder.build(aligned.originEnd);
}

/**
 * `aligned.text.replaceAll(pattern, content)`, aligned: the replacement's units map to the matched
 * units' span (an empty match is an insertion at its place); an empty replacement deletes them.
 * `content` must hold no `$` (JavaScript replacement patterns are not interpreted here).
 */
export function replaceAligned(aligned: AlignedText, pattern: RegExp, content: string): AlignedText {
  const builder = new AlignedTextBuilder();
  let cursor = 0;
  for (const match of aligned.text.matchAll(pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    builder.copy(aligned, cursor, start);
    const [spanStart, spanEnd] = start === end ? [anchorAt(aligned, start), anchorAt(aligned, start)] : spanOfUnits(aligned, start, end);
    builder.append(content, spanStart, spanEnd);
    cursor = end;
  }
  builder.copy(aligned, cursor, aligned.text.length);
  return builder.build(aligned.originEnd);
}

/** Drops leading and/or trailing whitespace (the characters `String.prototype.trim` removes). */
export function stripAligned(aligned: AlignedText, left: boolean, right: boolean): AlignedText {
  let from = 0;
  let to = aligned.text.length;
  if (left) from = aligned.text.length - aligned.text.trimStart().length;
  if (right) to = Math.max(from, aligned.text.trimEnd().length);
  return sliceAligned(aligned, from, to);
}
