import { InvalidInputError } from '@reward-lens/spec';
import { requireWellFormedText } from '../text/lone-surrogates.js';

/** A problem with its solution as one text, or with its steps already split. */
export type ScoringInput = readonly [problem: string, solution: string] | { problem: string; solution: string } | { problem: string; steps: readonly string[] };

/** A scoring input given as a record (as JSON holds it): a solution text, or its steps. */
export type ScoringRecord = { problem: string; solution: string } | { problem: string; steps: string[] };

export type NormalizedInput = { problem: string; solution: string; steps?: undefined } | { problem: string; steps: readonly string[]; solution?: undefined };

/** A value as a message names it: `number 3`, `an array`, `nothing`. */
function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return `number ${value} (JSON has no such number: a literal out of range, like 1e999)`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`.slice(0, 60);
}

/**
 * The shape of one record (`{ problem, solution }` or `{ problem, steps }`, as a JSONL line or an
 * HTTP body holds it), or what is wrong with it in words: the one check the CLI, serve and
 * `stepScores` share. Other fields are ignored, so records may carry ids or labels of their own.
 */
export function checkScoringRecord(value: unknown): { record: ScoringRecord } | { error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: `expected a record object {"problem": string, "solution": string} or {"problem": string, "steps": string[]}, got ${describeValue(value)}` };
  const { problem, solution, steps } = value as Record<string, unknown>;
  if (typeof problem !== 'string') return { error: `"problem" must be a string, got ${describeValue(problem)}` };
  if (steps !== undefined && solution !== undefined) return { error: 'give either "solution" or "steps", not both' };
  if (steps !== undefined) {
    if (!Array.isArray(steps) || !steps.every((step) => typeof step === 'string')) return { error: '"steps" must be an array of strings' };
    return { record: { problem, steps } };
  }
  if (typeof solution !== 'string') return { error: `"solution" must be a string (or "steps" an array of strings), got ${describeValue(solution)}` };
  return { record: { problem, solution } };
}

/** Checks the shape of one input; `location` names it in errors (`pair 3`). */
export function normalizeScoringInput(input: ScoringInput, location: string): NormalizedInput {
  if (Array.isArray(input)) {
    const [problem, solution] = input as readonly unknown[];
    if (input.length !== 2 || typeof problem !== 'string' || typeof solution !== 'string') {
      throw new InvalidInputError('expected a [problem, solution] pair of strings', { location });
    }
    requireWellFormedText(problem, 'the problem', location);
    requireWellFormedText(solution, 'the solution', location);
    return { problem, solution };
  }
  if (typeof input !== 'object' || input === null) throw new InvalidInputError('expected [problem, solution] or { problem, solution | steps }', { location });
  const checked = checkScoringRecord(input);
  if ('error' in checked) throw new InvalidInputError(checked.error, { location });
  const { record } = checked;
  requireWellFormedText(record.problem, '"problem"', location);
  if ('steps' in record) record.steps.forEach((step, index) => requireWellFormedText(step, `"steps"[${index}]`, location));
  else requireWellFormedText(record.solution, '"solution"', location);
  return record;
}
