import { type Trust, InvalidInputError, SequenceTooLongError } from '@reward-lens/spec';

import { keepsSolutionVerbatim, type ReadingRecipe } from '../recipes/reading-recipe.js';
import { mapSpanToReadToken, mapStepsToTokens, segmentGivenSteps, segmentSolution } from '../segmenter/index.js';
import type { LearnedStepsMeta, Segmentation, StepBoundaryDetector, StepDelimiter } from '../segmenter/types.js';
import type { CharSpan, PrmTokenizer } from '@reward-lens/tokenizers';
import { plainTextCuts } from './plain-text-cuts.js';
import { refuseTagsInContent, refuseTagTextInContent } from './reserved-tags.js';
import { planTokenizationWindow, tokensAtLeast } from './tokenization-window.js';
import type { NormalizedInput } from './scoring-input.js';

export interface TokenizeOptions {
  delimiter: StepDelimiter;
  detector?: StepBoundaryDetector;
  /** What a one-step fallback's note advises (the state of the model's learned detector). */
  singleStepAdvice?: string;
  /** The solution's steps as already found (by the learned detector), used instead of the delimiter. */
  segmentation?: Segmentation;
  /** Longest sequence the model takes. */
  maxPositions: number;
  /** `'none'` (default) throws on a longer sequence; `'left'` keeps the last `maxPositions` tokens. */
  truncation: 'none' | 'left';
}

export interface TokenizedStep {
  index: number;
  text: string;
  /** The step's characters in the full sequence text. */
  charSpan: CharSpan;
  /** `[first, end)` tokens overlapping the step, in sequence positions (BOS counted). */
  tokenSpan: readonly [number, number];
  /** The position whose reward is this step's score; -1 when truncation cut it off. */
  readTokenIndex: number;
  /**
   * The read token also covers characters of the next step (a tokenizer merged across the
   * boundary), so this step's score has seen a little of the next step. Covering only the
   * delimiter after the step (a `".\n"` token, say) does not count.
   */
  readTokenCrossesBoundary: boolean;
}

export interface PairMeta {
  nSteps: number;
  /** How the steps were found (`delimiter`, `given`, `detector:<name>`, `learned`, `single`). */
  stepMethod: string;
  /** Set when the solution was not split by the delimiter: why, and what was done instead (naming the learned detector and its held-out precision and recall). */
  stepDetection?: string;
  /** With `stepMethod: 'learned'`: the detector, its held-out figures, and its probability at each boundary it placed. */
  stepDetector?: LearnedStepsMeta;
  droppedEmptySteps: number;
  tokenCount: number;
  /** Tokens removed from the start by left truncation. */
  truncatedTokens: number;
  /** This pair's own notes (step detection, truncation); results also list them under `notes`. */
  notes: string[];
  /** Set when a domain check found the record outside the model's domain: why (its scores are then not `CALIBRATED`). */
  outOfDomain?: string;
  /** In calibrated results: this record's trust (`EXPLORATORY` when `outOfDomain` is set). */
  trust?: Trust;
}

/** One pair laid out as the recipe reads it, mapped exactly to token positions. */
export interface TokenizedPair {
  text: string;
  inputIds: Int32Array;
  /** Per token, its span in `text` (`[0, 0]` for BOS). */
  offsets: CharSpan[];
  steps: TokenizedStep[];
  /** `steps[k].readTokenIndex` for every step. */
  readPositions: number[];
  meta: PairMeta;
  notes: string[];
}

/** A piece of the laid-out text; per-piece tokenization encodes each on its own. */
interface Piece {
  text: string;
  start: number;
  /** Set for the piece that holds step `step` (with its suffix). */
  step?: number;
}

interface Layout {
  text: string;
  /** The problem's characters in `text`. */
  problemSpan: CharSpan;
  segmentation: Segmentation;
  stepSpans: CharSpan[];
  /** Where each step is read, when a suffix token is read instead of the step's last token. */
  anchorSpans?: CharSpan[];
  pieces: Piece[];
}

/** A solution given as one text, split as the tokenize options say (the delimiter, or a text-only detector), before any tokenizing. */
export function delimiterSegmentation(solution: string, options: TokenizeOptions): Segmentation {
  return segmentSolution(solution, {
    delimiter: options.delimiter,
    ...(options.detector ? { detector: options.detector } : {}),
    ...(options.singleStepAdvice ? { singleStepAdvice: options.singleStepAdvice } : {}),
  });
}

/**
 * Refuses a pair certainly too long before it is segmented or tokenized: the laid-out text holds
 * at least the problem's and the steps' characters, and this is judged from their count alone,
 * in memory that does not follow the text's length.
 */
export function refuseCertainlyTooLong(tokenizer: PrmTokenizer, input: NormalizedInput, options: TokenizeOptions): void {
  if (options.truncation === 'left') return;
  const characters = input.problem.length + (input.steps ? input.steps.reduce((total, step) => total + step.length, 0) : input.solution.length);
  const minimumTokens = tokensAtLeast(tokenizer, characters, options.maxPositions);
  if (minimumTokens !== undefined) throw new SequenceTooLongError(minimumTokens, options.maxPositions, { lowerBoundFromCharacters: characters });
}

function layOut(recipe: ReadingRecipe, input: NormalizedInput, options: TokenizeOptions): Layout {
  const { template } = recipe;
  if (recipe.readAt.at === 'piece-end' && recipe.tokenization !== 'per-piece') {
    throw new InvalidInputError(`recipe "${recipe.name}" reads at the end of each piece, which needs tokenization 'per-piece'`);
  }
  const segmented =
    input.steps !== undefined
      ? segmentGivenSteps([...input.steps], typeof options.delimiter === 'string' ? options.delimiter : template.stepJoiner)
      : {
          solution: input.solution,
          segmentation: options.segmentation ?? delimiterSegmentation(input.solution, options),
        };
  const head = template.prefix + input.problem + template.problemSuffix;
  const problemSpan: CharSpan = [template.prefix.length, template.prefix.length + input.problem.length];
  if (keepsSolutionVerbatim(recipe)) {
    const stepSpans = segmented.segmentation.steps.map((step): CharSpan => [head.length + step.charSpan[0], head.length + step.charSpan[1]]);
    const text = head + segmented.solution + template.suffix;
    return { text, problemSpan, segmentation: segmented.segmentation, stepSpans, pieces: [{ text, start: 0 }] };
  }
  // Otherwise the solution is rebuilt from its steps, as the recipe's template lays them out.
  let text = head;
  const pieces: Piece[] = [{ text: head, start: 0 }];
  const stepSpans: CharSpan[] = [];
  const anchorSpans: CharSpan[] = [];
  const anchor = recipe.readAt.at === 'suffix' ? recipe.readAt : undefined;
  const anchorIndex = anchor ? template.stepSuffix.indexOf(anchor.text) : -1;
  if (anchor && anchorIndex < 0)
    throw new InvalidInputError(
      `recipe "${recipe.name}" reads at ${JSON.stringify(anchor.text)}, which its step suffix ${JSON.stringify(template.stepSuffix)} does not contain`,
    );
  segmented.segmentation.steps.forEach((step, index) => {
    if (index > 0 && template.stepJoiner !== '') {
      pieces.push({ text: template.stepJoiner, start: text.length });
      text += template.stepJoiner;
    }
    // The step and its suffix are separate pieces: TRL and Skywork encode them apart.
    pieces.push({ text: step.text, start: text.length, step: index });
    stepSpans.push([text.length, text.length + step.text.length]);
    text += step.text;
    if (template.stepSuffix !== '') {
      pieces.push({ text: template.stepSuffix, start: text.length, step: index });
      if (anchor) anchorSpans.push([text.length + anchorIndex, text.length + anchorIndex + anchor.text.length]);
      text += template.stepSuffix;
    }
  });
  if (template.suffix !== '') {
    pieces.push({ text: template.suffix, start: text.length });
    text += template.suffix;
  }
  return { text, problemSpan, segmentation: segmented.segmentation, stepSpans, pieces, ...(anchor ? { anchorSpans } : {}) };
}

/**
 * Encodes the text whole, or piece by piece, from character `start` on (0: all of it), with offsets
 * in the whole text's coordinates. Pieces before `start` are not encoded; a piece it falls in is
 * encoded from there.
 */
function encodeLayout(
  tokenizer: PrmTokenizer,
  recipe: ReadingRecipe,
  layout: Layout,
  start: number,
): { ids: number[]; offsets: CharSpan[]; pieceEnds: (number | undefined)[] } {
  const ids: number[] = [];
  const offsets: CharSpan[] = [];
  const pieceEnds: (number | undefined)[] = [];
  const pieces = recipe.tokenization === 'whole' ? [{ text: layout.text, start: 0 }] : layout.pieces;
  // User text never spells a control token: an occurrence is cut so that it encodes as plain text.
  const cuts = plainTextCuts(layout.text, [layout.problemSpan, ...layout.stepSpans], tokenizer.controlTokens ?? []);
  let nextCut = 0;
  for (const piece of pieces as Piece[]) {
    const pieceEnd = piece.start + piece.text.length;
    if (pieceEnd <= start) continue;
    let from = Math.max(start, piece.start);
    while (nextCut < cuts.length && cuts[nextCut]! <= from) nextCut++;
    while (from < pieceEnd) {
      const to = nextCut < cuts.length && cuts[nextCut]! < pieceEnd ? cuts[nextCut++]! : pieceEnd;
      const encoding = tokenizer.encode(layout.text.slice(from, to));
      ids.push(...encoding.ids);
      for (const [tokenStart, tokenEnd] of encoding.offsets) offsets.push([tokenStart + from, tokenEnd + from]);
      from = to;
    }
    if (piece.step !== undefined) pieceEnds[piece.step] = ids.length - 1;
  }
  return { ids, offsets, pieceEnds };
}

/** Lays a pair out as `recipe` reads it, encodes it and maps every step to its read position. */
export function tokenizePair(tokenizer: PrmTokenizer, recipe: ReadingRecipe, input: NormalizedInput, options: TokenizeOptions): TokenizedPair {
  refuseCertainlyTooLong(tokenizer, input, options);
  const layout = layOut(recipe, input, options);
  const window = planTokenizationWindow(tokenizer, layout.text, options.maxPositions);
  if (window.kind === 'longer-than-window' && options.truncation !== 'left') {
    throw new SequenceTooLongError(window.minimumTokens, options.maxPositions, { lowerBoundFromCharacters: layout.text.length });
  }
  // Characters before this were cut before tokenizing: they lie wholly before the kept window.
  const untokenized = window.kind === 'longer-than-window' ? window.cutAt : 0;
  const contents = [{ label: 'the problem', span: layout.problemSpan }, ...layout.stepSpans.map((span, index) => ({ label: `step ${index}`, span }))];
  refuseTagTextInContent(tokenizer, recipe, layout.text, contents);
  const encoding = encodeLayout(tokenizer, recipe, layout, untokenized);
  refuseTagsInContent(tokenizer, recipe, encoding.ids, encoding.offsets, contents);
  const bos = recipe.addBos && tokenizer.bosTokenId !== null ? [tokenizer.bosTokenId] : [];
  const tokenOffset = bos.length;
  const notes: string[] = [];
  if (layout.segmentation.stepDetection) notes.push(layout.segmentation.stepDetection);

  const readAt = recipe.readAt;
  // Steps that end before the untokenized stretch is cut have no tokens (and no score); a step it
  // cuts into keeps its tokens from the cut on.
  const firstKept = untokenized === 0 ? 0 : layout.stepSpans.findIndex(([, end]) => end > untokenized);
  const keptSpans = layout.stepSpans.slice(firstKept).map(([start, end]): CharSpan => [Math.max(start, untokenized), end]);
  const mappedTokens = mapStepsToTokens(keptSpans, encoding.offsets, { lastStepReadsFinalToken: readAt.at === 'step-end', tokenOffset });
  const cutStep = { tokenSpan: [tokenOffset, tokenOffset] as const, readTokenIndex: Number.NEGATIVE_INFINITY, readTokenCrossesBoundary: false };
  const stepTokens = layout.stepSpans.map((_, index) => (index < firstKept ? cutStep : mappedTokens[index - firstKept]!));
  // Where each step is read, in sequence positions (BOS counted).
  const readIndices = stepTokens.map((tokens, index) => {
    if (index < firstKept) return Number.NEGATIVE_INFINITY;
    if (readAt.at === 'step-end') return tokens.readTokenIndex;
    if (readAt.at === 'piece-end') return encoding.pieceEnds[index]! + tokenOffset;
    const anchorSpan = layout.anchorSpans![index]!;
    const anchorToken = mapSpanToReadToken(anchorSpan, encoding.offsets);
    const [start, end] = encoding.offsets[anchorToken]!;
    if (start !== anchorSpan[0] || end !== anchorSpan[1]) {
      throw new InvalidInputError(
        `${JSON.stringify(readAt.text)} is not one token for tokenizer "${tokenizer.name}" (after step ${index}); add it as a special token`,
      );
    }
    return anchorToken + readAt.tokenOffset + tokenOffset;
  });

  let ids = [...bos, ...encoding.ids];
  const fullOffsets: CharSpan[] = [...bos.map((): CharSpan => [0, 0]), ...encoding.offsets];
  let offsets = fullOffsets;
  let truncatedTokens = 0;
  if (ids.length > options.maxPositions) {
    if (options.truncation !== 'left') throw new SequenceTooLongError(ids.length, options.maxPositions);
    truncatedTokens = ids.length - options.maxPositions;
    ids = ids.slice(truncatedTokens);
    offsets = offsets.slice(truncatedTokens);
    const lost = readIndices.filter((position) => position < truncatedTokens).length;
    const cutText = untokenized > 0 ? ` (and the first ${untokenized} characters, left untokenized: the window starts long after them)` : '';
    notes.push(
      `truncated ${truncatedTokens} tokens from the start${cutText} to fit ${options.maxPositions} positions` +
        (lost > 0 ? `; ${lost} step(s) read before the cut have no score (NaN)` : '; every step is still read'),
    );
  }

  const steps: TokenizedStep[] = layout.segmentation.steps.map((step, index) => {
    const tokens = stepTokens[index]!;
    const nextStepStart = layout.stepSpans[index + 1]?.[0];
    const readToken = Number.isFinite(readIndices[index]!) ? fullOffsets[readIndices[index]!] : undefined;
    const crossesIntoNextStep = readAt.at === 'step-end' && nextStepStart !== undefined && readToken !== undefined && readToken[1] > nextStepStart;
    const shift = (position: number) => Math.max(0, position - truncatedTokens);
    const readTokenIndex = readIndices[index]! - truncatedTokens;
    return {
      index,
      text: step.text,
      charSpan: layout.stepSpans[index]!,
      tokenSpan: [shift(tokens.tokenSpan[0]), shift(tokens.tokenSpan[1])] as const,
      readTokenIndex: readTokenIndex < 0 ? -1 : readTokenIndex,
      readTokenCrossesBoundary: crossesIntoNextStep,
    };
  });

  return {
    text: layout.text,
    inputIds: Int32Array.from(ids),
    offsets,
    steps,
    readPositions: steps.map((step) => step.readTokenIndex),
    meta: {
      nSteps: steps.length,
      stepMethod: layout.segmentation.method,
      ...(layout.segmentation.stepDetection ? { stepDetection: layout.segmentation.stepDetection } : {}),
      ...(layout.segmentation.learned ? { stepDetector: layout.segmentation.learned } : {}),
      droppedEmptySteps: layout.segmentation.droppedEmptySteps,
      tokenCount: ids.length,
      truncatedTokens,
      notes,
    },
    notes,
  };
}
