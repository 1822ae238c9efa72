import { InvalidInputError } from '@reward-lens/spec';
import { AddedTokenSplitter, stripAroundAddedTokens, type AddedTokenSpec } from './hf-offsets-added-tokens.js';
import { identityAligned, sliceAligned, spanOfUnits, type AlignedText } from './hf-offsets-aligned-text.js';
import { utf8BytesAt } from './hf-offsets-byte-level.js';
import { fillOffsetGaps, offsetsProblem } from './hf-offsets-gaps.js';
import type { AlignedNormalizer } from './hf-offsets-normalizer.js';
import { insertsPrefixes, spellPieces, spellText, type SpellingScheme } from './hf-offsets-pre-tokenizer.js';
import type { CharSpan } from './tokenizer.js';

/** What deriving offsets needs to know of one tokenizer: its file, compiled, and the library's own steps to check against. */
export interface HfOffsetsPlan {
  /** Named in errors. */
  name: string;
  addedTokens: readonly AddedTokenSpec[];
  /** The aligned normalizer, `null` when the file has none. */
  normalize: AlignedNormalizer | null;
  /** The library's normalizer: the aligned one must agree with it on every text. */
  libraryNormalize: ((text: string) => string) | null;
  /** The library's pre-tokenizer (`section_index` as the library passes it), `null` when the file has none. */
  preTokenize: ((text: string, sectionIndex: number) => string[]) | null;
  spelling: SpellingScheme;
  /** The model spells characters missing from its vocabulary as `<0xNN>` byte tokens. */
  byteFallback: boolean;
  unkTokenId: number | undefined;
}

interface AddedSegment {
  kind: 'added';
  /** The token string the library emits for it. */
  token: string;
  span: CharSpan;
}

interface TextSegment {
  kind: 'text';
  spelled: AlignedText;
}

type Segment = AddedSegment | TextSegment;

const byteTokenPattern = /^<0x([0-9A-Fa-f]{2})>$/;

function codePointWidth(text: string, index: number): number {
  return text.codePointAt(index)! > 0xffff ? 2 : 1;
}

/**
 * Exact character offsets for @huggingface/tokenizers encodings, which carry none.
 *
 * The library's token list is the truth for ids; this walks it against the text. It re-does the
 * library's splitting on added tokens (and their `lstrip`/`rstrip`), runs the normalizer with an
 * alignment to the original text (checked against the library's own normalizer output on every
 * section), spells the normalized text as the model reads it (byte-level characters, `▁` for
 * spaces, and any prefix the pre-tokenizer inserts, located with the library's own pieces) and
 * consumes that spelling with the tokens: literally, byte by byte for `<0xNN>` byte-fallback
 * tokens, or as a run of unknown characters for the unknown token. A token that does not spell the
 * text where it stands, or text left over, throws: so the tokens' bytes are checked to be the text's
 * bytes (modulo normalization and inserted prefixes) on every call, and offsets are never guessed.
 */
export class HfOffsetAligner {
  private readonly addedByKey = new Map<string, AddedTokenSpec>();
  private readonly rawSplitter: AddedTokenSplitter;
  private readonly normalizedSplitter: AddedTokenSplitter;

  constructor(private readonly plan: HfOffsetsPlan) {
    const rawContents: string[] = [];
    const normalizedContents: string[] = [];
    for (const token of plan.addedTokens) {
      this.addedByKey.set(token.content, token);
      if (token.normalized && plan.libraryNormalize !== null) {
        const normalizedContent = plan.libraryNormalize(token.content);
        normalizedContents.push(normalizedContent);
        this.addedByKey.set(normalizedContent, token);
      } else {
        rawContents.push(token.content);
      }
    }
    this.rawSplitter = new AddedTokenSplitter(rawContents);
    this.normalizedSplitter = new AddedTokenSplitter(normalizedContents);
  }

  /** Offsets for `tokens`, the library's encoding of `text` without special tokens added. */
  offsets(text: string, tokens: readonly string[], ids: readonly number[]): CharSpan[] {
    const segments = this.segments(text);
    const offsets: CharSpan[] = [];
    const isAdded: boolean[] = [];
    let segmentIndex = 0;
    let cursor = 0;
    let byteIndex = 0;
    const bytes = new Uint8Array(4);
    const currentSegment = (): Segment | undefined => {
      for (;;) {
        const segment = segments[segmentIndex];
        if (segment === undefined || segment.kind === 'added' || cursor < segment.spelled.text.length) return segment;
        segmentIndex += 1;
        cursor = 0;
      }
    };
    tokens.forEach((token, tokenIndex) => {
      const segment = currentSegment();
      if (segment === undefined) throw this.error(`token ${tokenIndex} (${JSON.stringify(token)}) is past the end of the text`);
      if (segment.kind === 'added') {
        if (token !== segment.token)
          throw this.error(`token ${tokenIndex} is ${JSON.stringify(token)} where the added token ${JSON.stringify(segment.token)} was expected`);
        offsets.push(segment.span);
        isAdded.push(true);
        segmentIndex += 1;
        return;
      }
      const spelled = segment.spelled;
      const byteToken = this.plan.byteFallback ? byteTokenPattern.exec(token) : null;
      if (byteToken !== null) {
        const width = codePointWidth(spelled.text, cursor);
        const byteCount = utf8BytesAt(spelled.text, cursor, bytes);
        if (bytes[byteIndex] === Number.parseInt(byteToken[1]!, 16)) {
          offsets.push(spanOfUnits(spelled, cursor, cursor + width));
          isAdded.push(false);
          byteIndex += 1;
          if (byteIndex === byteCount) {
            cursor += width;
            byteIndex = 0;
          }
          return;
        }
      }
      if (byteIndex === 0 && token.length > 0 && spelled.text.startsWith(token, cursor)) {
        offsets.push(spanOfUnits(spelled, cursor, cursor + token.length));
        isAdded.push(false);
        cursor += token.length;
        return;
      }
      if (byteIndex === 0 && ids[tokenIndex] === this.plan.unkTokenId) {
        const end = this.unknownRunEnd(spelled, cursor, tokens[tokenIndex + 1]);
        offsets.push(spanOfUnits(spelled, cursor, end));
        isAdded.push(false);
        cursor = end;
        return;
      }
      const context = JSON.stringify(spelled.text.slice(cursor, cursor + 12));
      throw this.error(
        `token ${tokenIndex} (${JSON.stringify(token)}) does not spell the text at ${context}${byteIndex > 0 ? ` (byte ${byteIndex} of a character)` : ''}`,
      );
    });
    if (currentSegment() !== undefined) throw this.error('text is left over after the last token');
    fillOffsetGaps(offsets, isAdded, text.length);
    const problem = offsetsProblem(offsets, text.length);
    if (problem !== null) throw this.error(problem);
    return offsets;
  }

  private error(reason: string): InvalidInputError {
    return new InvalidInputError(`cannot derive exact offsets with tokenizer "${this.plan.name}": ${reason}`, { location: 'text' });
  }

  /**
   * Where an unknown token's run ends: at the first code point boundary (at least one code point
   * in) where the next token spells the text, else at the end of the stretch. The library fuses a
   * run of unknown characters into one unknown token (`fuse_unk`, across pre-tokenizer pieces too);
   * the run cannot hold the next token's first character, which the vocabulary knows.
   */
  private unknownRunEnd(spelled: AlignedText, start: number, nextToken: string | undefined): number {
    let end = start + codePointWidth(spelled.text, start);
    while (end < spelled.text.length && !this.spellsAt(spelled, end, nextToken)) end += codePointWidth(spelled.text, end);
    return end;
  }

  private spellsAt(spelled: AlignedText, index: number, token: string | undefined): boolean {
    if (token === undefined || token.length === 0) return false;
    if (spelled.text.startsWith(token, index)) return true;
    const byteToken = this.plan.byteFallback ? byteTokenPattern.exec(token) : null;
    if (byteToken === null) return false;
    const bytes = new Uint8Array(4);
    utf8BytesAt(spelled.text, index, bytes);
    return bytes[0] === Number.parseInt(byteToken[1]!, 16);
  }

  /** The library's `encode_text`, re-done with alignment: added tokens, normalizer, pre-tokenizer. */
  private segments(text: string): Segment[] {
    const segments: Segment[] = [];
    const lookUp = (piece: string) => this.addedByKey.get(piece);
    const sections = this.rawSplitter.split(text);
    const claimed = stripAroundAddedTokens(text, sections, lookUp);
    sections.forEach((section, sectionIndex) => {
      if (section.end <= section.start) return;
      const sectionText = text.slice(section.start, section.end);
      if (this.addedByKey.has(sectionText)) {
        segments.push({ kind: 'added', token: sectionText, span: claimed[sectionIndex]! });
        return;
      }
      const normalized = this.normalizeSection(identityAligned(text, section.start, section.end));
      if (normalized.text.length === 0) return;
      const subsections = this.normalizedSplitter.split(normalized.text);
      const subsectionClaims = stripAroundAddedTokens(normalized.text, subsections, lookUp);
      subsections.forEach((subsection, subsectionIndex) => {
        if (subsection.end <= subsection.start) return;
        const subsectionText = normalized.text.slice(subsection.start, subsection.end);
        if (this.addedByKey.has(subsectionText)) {
          const [from, to] = subsectionClaims[subsectionIndex]!;
          segments.push({ kind: 'added', token: subsectionText, span: spanOfUnits(normalized, from, to) });
          return;
        }
        // Piece boundaries only matter where the pre-tokenizer inserts a prefix before pieces; otherwise
        // the text is spelled directly (the token walk checks the spelling end to end all the same).
        const pieces =
          this.plan.preTokenize !== null && insertsPrefixes(this.plan.spelling)
            ? this.plan.preTokenize(subsectionText, sectionIndex)
            : [spellText(subsectionText, this.plan.spelling)];
        const spelled = spellPieces(sliceAligned(normalized, subsection.start, subsection.end), pieces, this.plan.spelling);
        if (spelled === null) {
          const shown = `${JSON.stringify(pieces.slice(0, 4))}${pieces.length > 4 ? '...' : ''}`;
          throw this.error(`the pre-tokenizer's pieces ${shown} do not spell ${JSON.stringify(subsectionText.slice(0, 40))}`);
        }
        if (spelled.text.length > 0) segments.push({ kind: 'text', spelled });
      });
    });
    return segments;
  }

  private normalizeSection(section: AlignedText): AlignedText {
    const { normalize, libraryNormalize } = this.plan;
    const normalized = normalize === null ? section : normalize(section);
    const expected = libraryNormalize === null ? section.text : libraryNormalize(section.text);
    if (normalized.text !== expected) {
      throw this.error(`its normalizer gives ${JSON.stringify(expected.slice(0, 40))}, the aligned one ${JSON.stringify(normalized.text.slice(0, 40))}`);
    }
    return normalized;
  }
}
