import type { LabelInput } from './label-types.js';

/** A record's solution as steps: `steps` (strings) or `solution` split at the delimiter, trimmed, empty steps dropped. */
function stepsOf(value: Record<string, unknown>, field: string, delimiter: string): string[] | string {
  const raw = value[field];
  if (Array.isArray(raw)) return raw.every((step) => typeof step === 'string') ? (raw as string[]) : `"${field}" must hold strings`;
  if (typeof raw === 'string')
    return raw
      .split(delimiter)
      .map((step) => step.trim())
      .filter((step) => step !== '');
  return `"${field}" must be a string or an array of strings`;
}

/**
 * A labelling record (`{"problem", "steps": [...] or "solution": text, "answer" or "reference"}`)
 * as the labeller's input, or what is wrong with it, in words for the user: a bad record is
 * reported as data and the run goes on.
 *
 * @example
 * readLabelInput({ problem: 'What is 2 + 3?', solution: '2 + 3 = 5\nThe answer is 5', answer: 5 }, '\n');
 * // { problem: 'What is 2 + 3?', steps: ['2 + 3 = 5', 'The answer is 5'], reference: '5' }
 */
export function readLabelInput(value: Record<string, unknown>, delimiter: string): LabelInput | string {
  if (typeof value.problem !== 'string') return '"problem" must be a string';
  const field = value.steps !== undefined ? 'steps' : 'solution';
  const steps = stepsOf(value, field, delimiter);
  if (typeof steps === 'string') return steps;
  if (steps.length === 0) return 'the solution has no steps';
  const reference = value.answer ?? value.reference;
  if (typeof reference !== 'string' && typeof reference !== 'number') return '"answer" (or "reference") must be a string or a number';
  return { problem: value.problem, steps, reference: String(reference) };
}
