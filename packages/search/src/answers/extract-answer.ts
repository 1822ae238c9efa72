import { lastCommandArgument } from './latex-groups.js';

/**
 * How an answer was found. `boxed`, `answer-is` and `hashes` are stated answers (a solution that
 * has one is finished); `last-number` is a guess from the last number in the text.
 */
export type AnswerMethod = 'boxed' | 'answer-is' | 'hashes' | 'last-number';

export interface ExtractedAnswer {
  /** The answer as written (before normalisation). */
  text: string;
  method: AnswerMethod;
  /** `[start, end)` of what was matched in the solution. */
  span: readonly [number, number];
}

export interface ExtractOptions {
  /** Fall back to the last number in the text. Default true; search sets it false to tell whether a step states an answer. */
  lastNumber?: boolean;
}

const boxCommands = ['boxed', 'fbox'];

/** "The answer is", "the final answer is:", "Answer is" (the last one), up to the end of its sentence or line. */
const answerIs = /\b(?:final\s+)?answer\s*(?:is|:)\s*:?\s*/gi;

/** GSM8K's reference format: `#### 72`. */
const hashes = /####\s*/g;

/**
 * A number as solutions write it: thousands separators (`1,234,567`), decimals, a fraction of
 * integers (`3/4`), a sign, an optional `$`. Commas that do not group by three are not part of it.
 */
const numberPattern = /[-+−]?\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\/\d+)?|[-+−]?\$?\.\d+/g;

function lastMatch(pattern: RegExp, text: string): RegExpExecArray | null {
  pattern.lastIndex = 0;
  let last: RegExpExecArray | null = null;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) last = match;
  return last;
}

/** The text after a trigger, up to a line break or the end of the sentence (a period not inside a number). */
function sentenceAfter(text: string, start: number): { text: string; end: number } {
  const rest = text.slice(start);
  const stop = /\n|\.(?=\s|$)/.exec(rest);
  const raw = stop ? rest.slice(0, stop.index) : rest;
  return { text: raw.trim(), end: start + raw.length };
}

/**
 * The final answer a solution states, as Qwen2.5-Math's `extract_answer` looks for it: the last
 * `\boxed{...}` (nested braces kept whole; `\fbox` too), else the last "answer is ...", else
 * GSM8K's `#### ...`, else (unless `lastNumber: false`) the last number. Null when there is none.
 *
 * @example
 * extractAnswer('So $x = \\boxed{\\frac{1}{2}}$.'); // { text: '\\frac{1}{2}', method: 'boxed', ... }
 */
export function extractAnswer(solution: string, options: ExtractOptions = {}): ExtractedAnswer | null {
  const boxed = lastCommandArgument(solution, boxCommands);
  if (boxed && boxed.content.trim() !== '') return { text: boxed.content.trim(), method: 'boxed', span: [boxed.start, boxed.end] };

  const stated = lastMatch(answerIs, solution);
  if (stated) {
    const after = sentenceAfter(solution, stated.index + stated[0].length);
    if (after.text !== '') return { text: after.text, method: 'answer-is', span: [stated.index, after.end] };
  }

  const hashed = lastMatch(hashes, solution);
  if (hashed) {
    const after = sentenceAfter(solution, hashed.index + hashed[0].length);
    if (after.text !== '') return { text: after.text, method: 'hashes', span: [hashed.index, after.end] };
  }

  if (options.lastNumber === false) return null;
  const number = lastMatch(numberPattern, solution);
  return number ? { text: number[0], method: 'last-number', span: [number.index, number.index + number[0].length] } : null;
}
