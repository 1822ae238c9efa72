import type { CharSpan } from '@reward-lens/tokenizers';

/**
 * Narrows `[start, end)` of `text` to its content, dropping the whitespace `String.prototype.trim`
 * drops (spaces, tabs, `\r`, `\n`, NBSP, the BOM, the other Unicode spaces and line terminators),
 * so a CRLF's `\r` or a step's indentation is never part of the step. `null` when nothing is left.
 */
export function trimSpan(text: string, start: number, end: number): CharSpan | null {
  const piece = text.slice(start, end);
  const trimmedStart = piece.trimStart();
  if (trimmedStart.length === 0) return null;
  const contentStart = start + (piece.length - trimmedStart.length);
  const contentEnd = contentStart + trimmedStart.trimEnd().length;
  return [contentStart, contentEnd];
}
