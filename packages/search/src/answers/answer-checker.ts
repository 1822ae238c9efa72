import { extractAnswer, type ExtractedAnswer, type ExtractOptions } from './extract-answer.js';
import { normalizeAnswer, type NormalizeOptions, type PercentMeaning } from './normalize-answer.js';
import { parseNumber } from './parse-number.js';
import { toNumber } from './rational.js';

/** What a checker knows of the question: the problem text (for `percent: 'auto'`). */
export interface AnswerContext {
  problem?: string;
}

/**
 * Finds, normalises and compares final answers. Reranking, search and Monte-Carlo labels take one,
 * so a task with its own answer format (code, multiple choice, units that matter) plugs in its own.
 */
export interface AnswerChecker {
  /** The final answer a solution states; null when it states none. */
  extract(solution: string, options?: ExtractOptions): ExtractedAnswer | null;
  /** The key equivalent answers share; votes group by it. */
  normalize(answer: string, context?: AnswerContext): string;
  /** Whether an answer matches a reference answer (both as written). */
  equal(answer: string, reference: string, context?: AnswerContext): boolean;
}

export interface AnswerCheckerOptions {
  percent?: PercentMeaning;
  /**
   * For `equal` only: numbers within this relative difference match (Qwen2.5-Math's `math_equal`
   * uses 1e-4). Default 0: exact. Keys (and so votes) stay exact, since a tolerance is not transitive.
   */
  relativeTolerance?: number;
}

/**
 * The default checker: `extractAnswer`, `normalizeAnswer`, and equality of normalised keys
 * (with an optional numeric tolerance).
 *
 * @example
 * const checker = createAnswerChecker();
 * checker.equal('\\dfrac12', '0.5'); // true
 */
export function createAnswerChecker(options: AnswerCheckerOptions = {}): AnswerChecker {
  const tolerance = options.relativeTolerance ?? 0;
  const normalizeOptions = (context: AnswerContext | undefined): NormalizeOptions => ({
    ...(options.percent !== undefined ? { percent: options.percent } : {}),
    ...(context?.problem !== undefined ? { problem: context.problem } : {}),
  });
  const normalize = (answer: string, context?: AnswerContext) => normalizeAnswer(answer, normalizeOptions(context));
  return {
    extract: extractAnswer,
    normalize,
    equal(answer, reference, context) {
      const left = normalize(answer, context);
      const right = normalize(reference, context);
      if (left === right) return true;
      if (tolerance <= 0) return false;
      const a = parseNumber(left);
      const b = parseNumber(right);
      if (!a || !b) return false;
      const x = toNumber(a);
      const y = toNumber(b);
      return Math.abs(x - y) <= tolerance * Math.max(Math.abs(x), Math.abs(y));
    },
  };
}

export const defaultAnswerChecker: AnswerChecker = createAnswerChecker();
