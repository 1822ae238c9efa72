import type { CharSpan } from '@reward-lens/tokenizers';

const escapeLiteral = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const patterns = new WeakMap<readonly string[], RegExp | null>();

/** One alternation of the spellings, longest first (null: none longer than a character). */
function patternOf(controlTokens: readonly string[]): RegExp | null {
  let pattern = patterns.get(controlTokens);
  if (pattern === undefined) {
    const spellings = controlTokens.filter((token) => token.length > 1).sort((a, b) => b.length - a.length);
    pattern = spellings.length === 0 ? null : new RegExp(spellings.map(escapeLiteral).join('|'), 'g');
    patterns.set(controlTokens, pattern);
  }
  return pattern;
}

/**
 * Where to cut user text so that no piece spells a control token (`<s>`, `<|im_start|>`): each
 * occurrence inside a content span is cut in its middle, so the tokenizer encodes it as the plain
 * characters it is; a piece that still spells one (overlapping spellings) is cut at every
 * character. Text without one gets no cut, so its tokenization is unchanged. Linear in the text.
 */
export function plainTextCuts(text: string, contents: readonly CharSpan[], controlTokens: readonly string[]): number[] {
  const pattern = patternOf(controlTokens);
  if (pattern === null) return [];
  const cuts: number[] = [];
  const holds = (start: number, end: number) => {
    pattern.lastIndex = 0;
    return pattern.test(text.slice(start, end));
  };
  for (const [start, end] of contents) {
    const content = text.slice(start, end);
    const spanCuts: number[] = [];
    for (const match of content.matchAll(pattern)) spanCuts.push(start + match.index + Math.floor(match[0].length / 2));
    if (spanCuts.length === 0) continue;
    const bounds = [start, ...spanCuts, end];
    for (let index = 0; index + 1 < bounds.length; index++) {
      const [from, to] = [bounds[index]!, bounds[index + 1]!];
      if (index > 0) cuts.push(from);
      if (holds(from, to)) for (let at = from + 1; at < to; at++) cuts.push(at);
    }
  }
  return [...new Set(cuts)].sort((a, b) => a - b);
}
