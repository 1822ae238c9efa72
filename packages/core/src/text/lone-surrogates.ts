import { InvalidInputError } from '@reward-lens/spec';

/**
 * The index of the first lone surrogate in `text` (a UTF-16 half with no partner: not a character,
 * and not valid UTF-8 once encoded), or -1 when the text is well formed. JSON may hold one
 * (`"\ud800"`); text read from bytes never does.
 */
export function firstLoneSurrogate(text: string): number {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        index++;
        continue;
      }
    }
    return index;
  }
  return -1;
}

/**
 * Refuses text holding a lone surrogate, naming the field, the code unit and where: the one rule
 * for every text the SDK reads (problems, steps, solutions, delimiters), whatever the entry point.
 */
export function requireWellFormedText(text: string, field: string, location?: string): void {
  const index = firstLoneSurrogate(text);
  if (index < 0) return;
  const unit = text.charCodeAt(index).toString(16).toUpperCase();
  throw new InvalidInputError(`${field} holds a lone surrogate (U+${unit} at character ${index}): not valid text`, location ? { location } : {});
}
