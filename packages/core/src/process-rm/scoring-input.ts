import { InvalidInputError } from '@reward-lens/spec';
import { requireWellFormedText } from '../text/lone-surrogates.js';

/** A problem with its solution as one text, or with its steps already split. */
export type ScoringInput = readonly [problem: string, solution: string] | { problem: string; solution: string } | { problem: string; steps: readonly string[] };

export type NormalizedInput = { problem: string; solution: string; steps?: undefined } | { problem: string; steps: readonly string[]; solution?: undefined };

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
  const record = input as Record<string, unknown>;
  if (typeof record.problem !== 'string') throw new InvalidInputError('"problem" must be a string', { location });
  if (record.steps !== undefined) {
    if (record.solution !== undefined) throw new InvalidInputError('give either "solution" or "steps", not both', { location });
    if (!Array.isArray(record.steps) || !record.steps.every((step) => typeof step === 'string')) {
      throw new InvalidInputError('"steps" must be an array of strings', { location });
    }
    requireWellFormedText(record.problem, '"problem"', location);
    (record.steps as string[]).forEach((step, index) => requireWellFormedText(step, `"steps"[${index}]`, location));
    return { problem: record.problem, steps: record.steps as string[] };
  }
  if (typeof record.solution !== 'string') throw new InvalidInputError('"solution" (a string) or "steps" (an array of strings) is required', { location });
  requireWellFormedText(record.problem, '"problem"', location);
  requireWellFormedText(record.solution, '"solution"', location);
  return { problem: record.problem, solution: record.solution };
}
