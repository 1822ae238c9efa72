import { InvalidInputError, type ProcessRM } from '@reward-lens/core';
import { defaultAnswerChecker } from '../answers/answer-checker.js';
import { completeSolutions, statesAnswer } from '../policy/complete-solutions.js';
import type { StepPolicy } from '../policy/step-policy.js';
import { finishSearch, toSolution } from './finish-search.js';
import { emptyCounts, type SearchOptions, type SearchResult, type SearchSolution, type SolutionEnd } from './search-types.js';

/**
 * The baseline: n whole solutions from the policy (its own `complete`, or step by step up to the
 * budget), each scored in one pass, the best by `pickBy` (or by weighted vote) chosen.
 */
export async function bestOfNSearch(prm: ProcessRM, policy: StepPolicy, problem: string, options: SearchOptions): Promise<SearchResult> {
  const n = options.n;
  if (!Number.isInteger(n) || n < 1) throw new InvalidInputError(`n must be a positive integer, got ${n}`);
  const maxSteps = options.maxSteps ?? 16;
  const counts = emptyCounts(true);
  const notes: string[] = [];
  const checker = options.checker ?? defaultAnswerChecker;
  const pickBy = options.pickBy ?? 'last';

  const started = performance.now();
  const [completions] = await completeSolutions(policy, [{ problem, steps: [], count: n, seed: options.seed ?? 0 }], {
    maxSteps,
    checker,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  counts.generationMs += performance.now() - started;
  counts.policyCalls++;
  counts.iterations = 1;
  for (const completion of completions!) {
    counts.proposals += completion.steps.length;
    counts.generatedTokens += completion.tokens;
  }
  const usable = completions!.filter((completion) => completion.steps.length > 0);
  if (usable.length < completions!.length) notes.push(`${completions!.length - usable.length} of ${n} completions were empty`);

  const inputs = usable.map((completion) => ({ problem, steps: completion.steps }));
  const scoringStarted = performance.now();
  const evidence = inputs.length > 0 ? await prm.stepScores(inputs, { onInvalid: 'report' }) : null;
  counts.scoringMs += performance.now() - scoringStarted;
  counts.scoringCalls += inputs.length > 0 ? 1 : 0;
  const solutions: SearchSolution[] = [];
  usable.forEach((completion, index) => {
    const error = evidence!.value.errors[index];
    if (error) {
      notes.push(`solution ${index}: ${error.code}: ${error.message}`);
      return;
    }
    counts.scoredSteps += completion.steps.length;
    counts.scoredTokens += prm.tokenize(inputs[index]!).inputIds.length;
    const last = completion.steps[completion.steps.length - 1]!;
    const end: SolutionEnd = statesAnswer(last, checker) ? 'answer' : completion.end === 'step' ? 'budget' : completion.end;
    solutions.push(
      toSolution(problem, { steps: completion.steps, stepScores: Array.from(evidence!.value.curves[index]!), handle: null }, end, pickBy, checker),
    );
  });
  return finishSearch('best-of-n', solutions, options.select ?? 'best', counts, notes);
}
