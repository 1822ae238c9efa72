import { InvalidInputError } from '@reward-lens/spec';

/**
 * Whether a regular expression repeats without bound a group whose content is ambiguous: it
 * repeats, has alternatives or a count that may vary (`(a+)+`, `(\s*x?)*`, `(a|aa)+`,
 * `(?:.{1,3})*`): the shapes on which a
 * backtracking engine (JavaScript's, which the tokenizer library runs patterns on) can take
 * exponential time when a match fails. A conservative reading of the source: escapes and
 * character classes are skipped whole. Polynomial shapes (`\s*\s*$`) are not caught.
 */
export function nestedUnboundedRepetition(source: string): boolean {
  // One frame per open group: does its content hold an unbounded quantifier?
  const frames: boolean[] = [false];
  let lastGroupRepeats: boolean | undefined; // set right after a group closes, for the quantifier that may follow
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!;
    const closedGroup = lastGroupRepeats;
    lastGroupRepeats = undefined;
    if (char === '\\') {
      index++;
      continue;
    }
    if (char === '[') {
      for (index++; index < source.length && source[index] !== ']'; index++) if (source[index] === '\\') index++;
      continue;
    }
    if (char === '(') {
      frames.push(false);
      // A group's own prefix (`(?:`, `(?=`, `(?<!`, `(?<name>`, `(?i:`) is not a quantifier.
      const prefix = /^\?(?:[:=!]|<[=!]|<[^>]*>|[a-zA-Z-]+:)/.exec(source.slice(index + 1));
      if (prefix !== null) index += prefix[0].length;
      continue;
    }
    if (char === '|') {
      // Alternatives inside a group make its repetition ambiguous, as a repeating content does.
      if (frames.length > 1) frames[frames.length - 1] = true;
      continue;
    }
    if (char === ')') {
      const inner = frames.length > 1 ? frames.pop()! : false;
      lastGroupRepeats = inner;
      // What a group holds, its parent holds too.
      if (inner) frames[frames.length - 1] = true;
      continue;
    }
    let unbounded = char === '*' || char === '+';
    // A count that may vary (`?`, `{1,3}`) makes a group's content ambiguous, as alternatives do.
    let variable = unbounded || char === '?';
    if (char === '{') {
      const bound = /^\{(\d*)(,?)(\d*)\}/.exec(source.slice(index));
      if (bound === null) continue;
      unbounded = bound[2] === ',' && bound[3] === '';
      variable = bound[2] === ',' && bound[3] !== bound[1];
      index += bound[0].length - 1;
    }
    // A lazy quantifier's `?` (`a*?`) changes no count.
    if (char === '?' && closedGroup === undefined && index > 0 && /[*+?}]/.test(source[index - 1]!)) continue;
    if (unbounded && closedGroup === true) return true;
    if (variable && frames.length > 1) frames[frames.length - 1] = true;
    else if (unbounded) frames[frames.length - 1] = true;
  }
  return false;
}

/** Every regular expression a `tokenizer.json` holds (`{"Regex": ...}` anywhere: pre-tokenizer, normalizer, decoder), with where. */
function* patternsOf(value: unknown, path: string): Generator<{ pattern: string; path: string }> {
  if (Array.isArray(value)) {
    for (const [index, entry] of value.entries()) yield* patternsOf(entry, `${path}[${index}]`);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, entry] of Object.entries(value)) {
    if (key === 'Regex' && typeof entry === 'string') yield { pattern: entry, path };
    else if (key !== 'model' && key !== 'added_tokens') yield* patternsOf(entry, path === '' ? key : `${path}.${key}`);
  }
}

/**
 * Refuses, at load, a `tokenizer.json` pattern a backtracking engine could take exponential time
 * on (a hostile file would hang scoring and a server's event loop), with a typed error naming
 * the pattern and where it is. The patterns of real tokenizers (GPT-2's, Llama 3's, Qwen's,
 * SentencePiece's) repeat no repeating group and load as before.
 */
export function refuseCatastrophicPatterns(tokenizerJson: Record<string, unknown>): void {
  for (const { pattern, path } of patternsOf(tokenizerJson, '')) {
    if (nestedUnboundedRepetition(pattern)) {
      throw new InvalidInputError(
        `${path}: the pattern ${JSON.stringify(pattern)} repeats a group that itself repeats without bound: a backtracking regular-expression engine can take exponential time on it, so it is refused`,
        { location: 'tokenizer.json' },
      );
    }
  }
}
