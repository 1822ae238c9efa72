/** An entry of `tokenizer.json`'s `added_tokens`, with @huggingface/tokenizers' defaults filled in. */
export interface AddedTokenSpec {
  id: number;
  content: string;
  lstrip: boolean;
  rstrip: boolean;
  special: boolean;
  /** Matched in the normalized text (after the normalizer) rather than the raw text. */
  normalized: boolean;
}

interface TrieNode {
  children: Map<string, TrieNode>;
  word: string | undefined;
}

/** A stretch of text: `[start, end)`, and whether it is an added token's literal match. */
export interface TextPiece {
  start: number;
  end: number;
  isMatch: boolean;
}

/**
 * Finds added tokens the way @huggingface/tokenizers 0.2.0's `DictionarySplitter` does: scanning
 * left to right, at each position the longest token starting there, else move one code unit on.
 */
export class AddedTokenSplitter {
  private readonly root: TrieNode = { children: new Map(), word: undefined };

  constructor(words: Iterable<string>) {
    for (const word of words) {
      let node = this.root;
      // Code units, as the library's trie walks them.
      for (let index = 0; index < word.length; index += 1) {
        const key = word[index]!;
        let child = node.children.get(key);
        if (child === undefined) {
          child = { children: new Map(), word: undefined };
          node.children.set(key, child);
        }
        node = child;
      }
      if (word.length > 0) node.word = word;
    }
  }

  /** Non-empty pieces covering `text` in order. */
  split(text: string): TextPiece[] {
    const pieces: TextPiece[] = [];
    let start = 0;
    let index = 0;
    while (index < text.length) {
      let node: TrieNode | undefined = this.root;
      let match: string | undefined;
      for (let cursor = index; cursor < text.length; cursor += 1) {
        node = node.children.get(text[cursor]!);
        if (node === undefined) break;
        if (node.word !== undefined) match = node.word;
      }
      if (match === undefined) {
        index += 1;
        continue;
      }
      if (index > start) pieces.push({ start, end: index, isMatch: false });
      pieces.push({ start: index, end: index + match.length, isMatch: true });
      index += match.length;
      start = index;
    }
    if (start < text.length) pieces.push({ start, end: text.length, isMatch: false });
    return pieces;
  }
}

/**
 * The library's `lstrip`/`rstrip` pass over split pieces: an added token that strips on a side trims
 * the whitespace off its neighbour there. Pieces are visited in order and `lookUp` sees each one as
 * already trimmed by the previous visit, as in the library. Returns, per piece, the range of
 * stripped whitespace its token took (`[start, end)` grown to include it), for the token's span.
 */
export function stripAroundAddedTokens(text: string, pieces: TextPiece[], lookUp: (piece: string) => AddedTokenSpec | undefined): Array<[number, number]> {
  const claimed = pieces.map((piece): [number, number] => [piece.start, piece.end]);
  pieces.forEach((piece, index) => {
    const token = lookUp(text.slice(piece.start, piece.end));
    if (token === undefined) return;
    const previous = pieces[index - 1];
    if (token.lstrip && previous !== undefined) {
      const trimmedEnd = previous.start + text.slice(previous.start, previous.end).trimEnd().length;
      claimed[index]![0] = Math.min(claimed[index]![0], trimmedEnd);
      previous.end = trimmedEnd;
    }
    const next = pieces[index + 1];
    if (token.rstrip && next !== undefined) {
      const trimmedStart = next.end - text.slice(next.start, next.end).trimStart().length;
      claimed[index]![1] = Math.max(claimed[index]![1], trimmedStart);
      next.start = trimmedStart;
    }
  });
  return claimed;
}
