/** A stretch of text: either one added token (its index in the added-token list) or plain text. */
export interface TextChunk {
  start: number;
  end: number;
  /** Index into the added tokens, or -1 for text that goes through BPE. */
  addedTokenIndex: number;
}

function escapeForRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Compiles a splitter that finds added tokens literally, leftmost first and, among those starting at
 * the same place, longest first (so `<extra_10>` wins over `<extra_1>`).
 */
export function createAddedTokenSplitter(addedTokens: readonly string[]): (text: string) => TextChunk[] {
  if (addedTokens.length === 0) {
    return (text) => (text.length > 0 ? [{ start: 0, end: text.length, addedTokenIndex: -1 }] : []);
  }
  const indexByToken = new Map(addedTokens.map((token, index) => [token, index]));
  // An alternation tries its branches in order, so listing longer tokens first gives longest-match.
  const longestFirst = [...addedTokens].sort((left, right) => right.length - left.length);
  const pattern = new RegExp(longestFirst.map(escapeForRegExp).join('|'), 'g');
  return (text) => {
    const chunks: TextChunk[] = [];
    let cursor = 0;
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      if (start > cursor) chunks.push({ start: cursor, end: start, addedTokenIndex: -1 });
      cursor = start + match[0].length;
      chunks.push({ start, end: cursor, addedTokenIndex: indexByToken.get(match[0])! });
    }
    if (cursor < text.length) chunks.push({ start: cursor, end: text.length, addedTokenIndex: -1 });
    return chunks;
  };
}
