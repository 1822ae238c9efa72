import { InvalidInputError } from '@reward-lens/spec';
import { anchorAt, spanOfUnits, type AlignedText } from './hf-offsets-aligned-text.js';
import { byteLevelSpace, byteOfByteLevelCharacter, spellBytesByteLevel, utf8BytesAt } from './hf-offsets-byte-level.js';

/** How a pre-tokenizer spells the normalized text its pieces are cut from. */
export interface SpellingScheme {
  /** GPT-2 byte-level: every UTF-8 byte is spelled as one character of the byte-to-unicode table. */
  byteLevel: boolean;
  /** ByteLevel `add_prefix_space`: a piece not starting with a space gets one (`Ġ`) inserted. */
  byteLevelPrefixSpace: boolean;
  /** Metaspace: spaces are spelled with this character (`▁`). */
  metaspace: string | null;
  /** Metaspace `prepend_scheme` other than `never`: a piece may get the replacement inserted before it. */
  metaspacePrepends: boolean;
}

type Config = Record<string, unknown>;

const encoder = new TextEncoder();

/** Pre-tokenizers that only cut text into pieces, keeping every character. */
const splittingTypes = new Set(['Split', 'Digits', 'Punctuation', 'FixedLength']);

export const supportedPreTokenizerTypes = ['Sequence', 'ByteLevel', 'Metaspace', ...splittingTypes] as const;

function isConfig(value: unknown): value is Config {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unsupported(location: string, message: string): never {
  throw new InvalidInputError(
    `${message}; exact offsets can be derived for pre-tokenizers of type ${supportedPreTokenizerTypes.join(', ')} that keep every character`,
    { location },
  );
}

function visit(config: unknown, location: string, scheme: SpellingScheme): void {
  if (config === null || config === undefined) return;
  if (!isConfig(config) || typeof config.type !== 'string') unsupported(location, 'a pre-tokenizer must be an object with a string "type"');
  const type = config.type;
  if (type === 'Sequence') {
    const list = config.pretokenizers ?? [];
    if (!Array.isArray(list)) unsupported(location, 'a Sequence pre-tokenizer needs a "pretokenizers" array');
    list.forEach((item, index) => visit(item, `${location}.pretokenizers[${index}]`, scheme));
  } else if (type === 'ByteLevel') {
    scheme.byteLevel = true;
    scheme.byteLevelPrefixSpace ||= config.add_prefix_space === true;
  } else if (type === 'Metaspace') {
    const replacement = config.replacement ?? '\u2581';
    const spelledAs = config.str_rep || replacement;
    if (typeof replacement !== 'string' || Array.from(replacement).length !== 1 || spelledAs !== replacement) {
      unsupported(location, `a Metaspace pre-tokenizer must replace spaces with one character (got ${JSON.stringify(replacement)})`);
    }
    scheme.metaspace = replacement;
    scheme.metaspacePrepends = (config.prepend_scheme ?? 'always') !== 'never';
  } else if (type === 'Split') {
    // @huggingface/tokenizers keeps only the matches when `invert` is set, and drops them for `Removed`.
    if (config.invert === true) unsupported(location, 'a Split pre-tokenizer with "invert": true drops text');
    if (typeof config.behavior === 'string' && config.behavior.toLowerCase() === 'removed') {
      unsupported(location, 'a Split pre-tokenizer with "behavior": "Removed" drops text');
    }
  } else if (!splittingTypes.has(type)) {
    unsupported(location, `the ${JSON.stringify(type)} pre-tokenizer drops or rewrites text`);
  }
  if (scheme.byteLevel && scheme.metaspace !== null) unsupported(location, 'ByteLevel and Metaspace together');
}

/** Reads a `tokenizer.json` pre-tokenizer; throws an `InvalidInputError` for one that loses or rewrites text. */
export function compilePreTokenizer(config: unknown, location = 'tokenizer.json pre_tokenizer'): SpellingScheme {
  const scheme: SpellingScheme = { byteLevel: false, byteLevelPrefixSpace: false, metaspace: null, metaspacePrepends: false };
  visit(config, location, scheme);
  return scheme;
}

/** Whether the pre-tokenizer may insert a prefix (`Ġ`, `▁`) before a piece: only then do its piece boundaries matter. */
export function insertsPrefixes(scheme: SpellingScheme): boolean {
  return scheme.byteLevelPrefixSpace || scheme.metaspacePrepends;
}

/** `text` spelled as the model reads it, for a scheme that inserts nothing (see `insertsPrefixes`). */
export function spellText(text: string, scheme: SpellingScheme): string {
  if (scheme.byteLevel) return spellBytesByteLevel(encoder.encode(text));
  if (scheme.metaspace !== null) return text.replaceAll(' ', scheme.metaspace);
  return text;
}

/**
 * Aligns the pre-tokenizer's pieces (spelled as the model reads them) to the normalized text they
 * were cut from: byte-level characters to bytes, Metaspace's `▁` to spaces, and inserted prefixes
 * (`Ġ`, `▁`) to no character (zero-width, anchored where they were inserted). Returns `null` when
 * the pieces are not a spelling of the text, which means this scheme does not describe the
 * pre-tokenizer: offsets would be wrong, so the caller refuses.
 */
export function spellPieces(normalized: AlignedText, pieces: readonly string[], scheme: SpellingScheme): AlignedText | null {
  const source = normalized.text;
  const text = pieces.join('');
  const starts = new Int32Array(text.length);
  const ends = new Int32Array(text.length);
  const bytes = new Uint8Array(4);
  let byteCount = scheme.byteLevel && source.length > 0 ? utf8BytesAt(source, 0, bytes) : 0;
  let sourceIndex = 0;
  let byteIndex = 0;
  let output = 0;
  // The current source code point's span, computed once per code point.
  let spanFor = -1;
  let spanStart = 0;
  let spanEnd = 0;
  const sourceSpan = (): void => {
    if (spanFor === sourceIndex) return;
    const width = source.codePointAt(sourceIndex)! > 0xffff ? 2 : 1;
    [spanStart, spanEnd] = spanOfUnits(normalized, sourceIndex, sourceIndex + width);
    spanFor = sourceIndex;
  };
  const emit = (unitCount: number, start: number, end: number): void => {
    starts.fill(start, output, output + unitCount);
    ends.fill(end, output, output + unitCount);
    output += unitCount;
  };
  const emitInsertion = (unitCount: number): void => {
    let anchor: number;
    if (sourceIndex < source.length) {
      sourceSpan();
      anchor = spanStart;
    } else {
      anchor = anchorAt(normalized, source.length);
    }
    emit(unitCount, anchor, anchor);
  };
  for (const piece of pieces) {
    let atPieceStart = true;
    for (let index = 0; index < piece.length; ) {
      const width = piece.codePointAt(index)! > 0xffff ? 2 : 1;
      const character = width === 1 ? piece[index]! : piece.slice(index, index + width);
      index += width;
      const pieceStart = atPieceStart;
      atPieceStart = false;
      if (scheme.byteLevel) {
        const byte = byteOfByteLevelCharacter(character);
        if (byte === undefined) return null;
        if (sourceIndex < source.length && bytes[byteIndex] === byte) {
          sourceSpan();
          emit(1, spanStart, spanEnd);
          byteIndex += 1;
          if (byteIndex === byteCount) {
            sourceIndex += source.codePointAt(sourceIndex)! > 0xffff ? 2 : 1;
            byteIndex = 0;
            byteCount = sourceIndex < source.length ? utf8BytesAt(source, sourceIndex, bytes) : 0;
          }
        } else if (pieceStart && scheme.byteLevelPrefixSpace && character === byteLevelSpace && byteIndex === 0) {
          emitInsertion(1);
        } else {
          return null;
        }
        continue;
      }
      const sourceWidth = sourceIndex < source.length ? (source.codePointAt(sourceIndex)! > 0xffff ? 2 : 1) : 0;
      const sourceCharacter = sourceWidth === 0 ? undefined : source.slice(sourceIndex, sourceIndex + sourceWidth);
      if (sourceCharacter !== undefined && (sourceCharacter === character || (character === scheme.metaspace && sourceCharacter === ' '))) {
        sourceSpan();
        emit(width, spanStart, spanEnd);
        sourceIndex += sourceWidth;
      } else if (pieceStart && scheme.metaspacePrepends && character === scheme.metaspace) {
        emitInsertion(width);
      } else {
        return null;
      }
    }
  }
  if (sourceIndex !== source.length || byteIndex !== 0) return null;
  return { text, starts, ends, originEnd: normalized.originEnd };
}
