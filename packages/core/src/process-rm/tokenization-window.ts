import type { PrmTokenizer } from '@reward-lens/tokenizers';

const longestTokenCache = new WeakMap<PrmTokenizer, number>();

/**
 * The most characters one token of this tokenizer can stand for, with a margin: the longest
 * decoded token, doubled (normalizers may drop characters the token does not show, such as
 * combining marks). Computed once per tokenizer, only when a long text asks for it.
 */
export function charactersPerTokenBound(tokenizer: PrmTokenizer): number {
  const cached = longestTokenCache.get(tokenizer);
  if (cached !== undefined) return cached;
  let longest = 1;
  for (let id = 0; id < tokenizer.vocabSize; id++) {
    let text: string;
    try {
      text = tokenizer.decode([id]);
    } catch {
      continue;
    }
    if (text.length > longest) longest = text.length;
  }
  const bound = 2 * longest;
  longestTokenCache.set(tokenizer, bound);
  return bound;
}

/**
 * How much of a long text to tokenize. Any stretch of `maxPositions × charactersPerTokenBound`
 * characters holds at least `maxPositions` tokens, so a longer text is certainly longer than the
 * model's window: without truncation it can be refused before tokenizing, and with left truncation
 * only its last such stretch need be tokenized (cut after a space or newline where one is near, so
 * the tokens kept are those a whole-text encoding keeps). Memory then follows the model's window,
 * not the input.
 */
export function planTokenizationWindow(
  tokenizer: PrmTokenizer,
  text: string,
  maxPositions: number,
): { kind: 'whole' } | { kind: 'longer-than-window'; minimumTokens: number; cutAt: number } {
  const minimumTokens = tokensAtLeast(tokenizer, text.length, maxPositions);
  if (minimumTokens === undefined) return { kind: 'whole' };
  const window = maxPositions * charactersPerTokenBound(tokenizer);
  const latestStart = text.length - window;
  const boundary = Math.max(text.lastIndexOf('\n', latestStart), text.lastIndexOf(' ', latestStart));
  const cutAt = boundary >= 0 && latestStart - boundary <= 4096 ? boundary + 1 : latestStart;
  return { kind: 'longer-than-window', minimumTokens, cutAt };
}

/**
 * A lower bound on the tokens of `characters` characters of text when they are certainly more
 * than `maxPositions` (see `charactersPerTokenBound`), else `undefined`. Asked of an input's raw
 * length before it is segmented, it refuses a text far longer than the model without building
 * its steps (a 25 MB solution has a million of them).
 */
export function tokensAtLeast(tokenizer: PrmTokenizer, characters: number, maxPositions: number): number | undefined {
  // A text this short costs little to tokenize whole, whatever its token count: skip the bound.
  if (characters <= 4 * maxPositions) return undefined;
  const perToken = charactersPerTokenBound(tokenizer);
  return characters > maxPositions * perToken ? Math.ceil(characters / perToken) : undefined;
}
