import { keepsSolutionVerbatim, type ReadingRecipe } from '../recipes/reading-recipe.js';
import type { PrmTokenizer } from '@reward-lens/tokenizers';
import type { TokenizedPair } from './tokenize-pair.js';

/**
 * First characters a next step may start with, one of each kind a tokenizer treats differently
 * (letters, digits, spaces, punctuation, brackets, a backslash, a non-ASCII letter, line breaks).
 */
const probeSteps = ['a', 'A', '1', ' a', ' ', '.', '(', '\\', '\u00e9', '\n', '\t'] as const;

/** Tokens of the window the probes start with: doubled while a probe changes the window's first token. */
const initialWindow = 8;

function commonLength(left: readonly number[], right: readonly number[]): number {
  let length = 0;
  while (length < left.length && length < right.length && left[length] === right[length]) length++;
  return length;
}

/** The text the next step is laid out after: the joiner between steps, as the layout writes it. */
export function stepJoinerOf(recipe: ReadingRecipe, delimiter: unknown): string {
  return keepsSolutionVerbatim(recipe) && typeof delimiter === 'string' ? delimiter : recipe.template.stepJoiner;
}

/**
 * How many leading tokens of a prefix's layout (`pair`, with at least one step) stay the same
 * whatever step is appended next: the tokens a scored prefix can keep in its cache.
 *
 * The next layout continues the text after the last step (and its suffix) with the joiner and the
 * new step, and replaces the template's closing suffix. Tokens that reach past the last step's
 * suffix are replaced by construction. Per-piece tokenization encodes each step apart, so the rest
 * stays. A whole-text tokenizer can merge the last tokens with what follows (a byte-level BPE
 * turns `.` then `\n` into one `.\n` token); which ones it merges is found by asking the tokenizer:
 * the last tokens' text is encoded followed by the joiner and each of a few probe steps (one per
 * kind of first character), and tokens no probe changed are stable. A step that changes more than
 * any probe (a merge no probe shows) is still scored exactly: the prefix then extends from an
 * earlier checkpoint, re-running more.
 */
export function stableTokenCount(tokenizer: PrmTokenizer, recipe: ReadingRecipe, pair: TokenizedPair, joiner: string): number {
  const last = pair.steps.at(-1);
  if (last === undefined) return 0;
  return stableTokensBefore(tokenizer, recipe, pair, last.charSpan[1] + recipe.template.stepSuffix.length, joiner);
}

/**
 * How many leading tokens of a layout (`pair`, with at least one step) stay the same whatever its
 * first step is: the problem's part of the layout that a prefix of no steps can cache. Found as
 * `stableTokenCount` finds them, with the probes written where the first step starts.
 */
export function headStableTokenCount(tokenizer: PrmTokenizer, recipe: ReadingRecipe, pair: TokenizedPair): number {
  const first = pair.steps[0];
  return first === undefined ? 0 : stableTokensBefore(tokenizer, recipe, pair, first.charSpan[0], '');
}

/** The tokens wholly before character `textEnd` that no probe step written after it (behind `joiner`) changes. */
function stableTokensBefore(tokenizer: PrmTokenizer, recipe: ReadingRecipe, pair: TokenizedPair, textEnd: number, joiner: string): number {
  const ids = pair.inputIds;
  // Tokens wholly before `textEnd` (BOS, whose span is empty, included).
  let limit = 0;
  while (limit < ids.length && pair.offsets[limit]![1] <= textEnd) limit++;
  if (recipe.tokenization === 'per-piece') return limit;

  const bos = ids.length > 0 && ids[0] === tokenizer.bosTokenId && pair.offsets[0]![0] === pair.offsets[0]![1] ? 1 : 0;
  const after = recipe.template.stepSuffix + recipe.template.suffix;
  for (let window = initialWindow; ; window *= 2) {
    const first = Math.max(bos, limit - window);
    const start = pair.offsets[first]?.[0] ?? textEnd;
    const head = pair.text.slice(start, textEnd);
    const base = tokenizer.encode(head);
    // Where the earliest probe changes the window's tokens, in characters of the text.
    let changedAt = textEnd;
    for (const probe of probeSteps) {
      const kept = commonLength(base.ids, tokenizer.encode(head + joiner + probe + after).ids);
      if (kept < base.ids.length) changedAt = Math.min(changedAt, start + base.offsets[kept]![0]);
    }
    let stable = first;
    while (stable < limit && pair.offsets[stable]![1] <= changedAt) stable++;
    // A probe changed the window's first token: what it changes may reach further back.
    if (stable > first || first === bos) return stable;
  }
}
