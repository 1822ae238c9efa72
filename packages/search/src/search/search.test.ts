import '@reward-lens/backend-tiny/register';
import { ProcessRM, createTextGenerator } from '@reward-lens/core';
import { meterBackend } from './meter-backend.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatorPolicy } from '../policy/generator-policy.js';
import { createRulePrm } from '../testing/rule-prm.js';
import { createScriptedPolicy } from '../policy/scripted-policy.js';
import { search } from './search.js';

const problem = 'Compute 2 + 3, then multiply by 4.';
const A = '2 + 3 = 5.';
const C = 'First add.';
const twenty = '5 * 4 = 20. The answer is \\boxed{20}.';

// Scores of the arithmetic rule: a right computation 0.9, a wrong one 0.1, none 0.5.
const beamScript = {
  '': [A, '2 + 3 = 6.', A, C],
  [A]: [twenty, '5 * 4 = 24.'],
  [C]: [A, 'The answer is \\boxed{20}.'],
  [`${C}\n${A}`]: [twenty, '5 * 4 = 21.'],
  [`${A}\n5 * 4 = 24.`]: ['The answer is \\boxed{24}.', '24 - 0 = 24. The answer is \\boxed{24}.'],
};

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe('beam search (n 4, beam width 2) with a scripted policy and a rule PRM: picks and counts exactly', () => {
  it.each(['incremental', 'full'] as const)('%s scoring', async (scoring) => {
    const { prm, backend } = createRulePrm();
    const policy = createScriptedPolicy({ script: beamScript });
    const result = await search(prm, policy, problem, { strategy: 'beam', n: 4, beamWidth: 2, maxSteps: 8, scoring, meter: backend });
    // Iteration 0: A (0.9), "= 6" (0.1), A again (not rescored), C (0.5): A and C kept.
    // Iteration 1: A+twenty finishes (0.9), A+"= 24" (0.1) goes on; C+A (0.9) goes on, C+answer finishes (0.5).
    // Iteration 2: C+A+twenty (0.9) and both "24" endings finish: five solutions, n reached.
    expect(result.solutions.map((solution) => [solution.steps, solution.end, solution.normalized])).toEqual([
      [[A, twenty], 'answer', '20'],
      [[C, 'The answer is \\boxed{20}.'], 'answer', '20'],
      [[C, A, twenty], 'answer', '20'],
      [[A, '5 * 4 = 24.', 'The answer is \\boxed{24}.'], 'answer', '24'],
      [[A, '5 * 4 = 24.', '24 - 0 = 24. The answer is \\boxed{24}.'], 'answer', '24'],
    ]);
    expect(result.solutions.map((solution) => solution.stepScores.map((score) => Number(score.toFixed(3))))).toEqual([
      [0.9, 0.9],
      [0.5, 0.5],
      [0.5, 0.9, 0.9],
      [0.9, 0.1, 0.5],
      [0.9, 0.1, 0.9],
    ]);
    // Ties on the last step's score go to the earliest solution.
    expect(result.pick).toBe(0);
    expect(result.votes.map((vote) => [vote.normalized, Number(vote.total.toFixed(3)), vote.count])).toEqual([
      ['20', 2.3, 3],
      ['24', 1.4, 2],
    ]);
    const proposed = [...beamScript[''], ...beamScript[A], ...beamScript[C], ...beamScript[`${C}\n${A}`], ...beamScript[`${A}\n5 * 4 = 24.`]];
    expect(result.counts).toMatchObject({
      proposals: 12,
      scoredSteps: 11,
      iterations: 3,
      policyCalls: 3,
      generatedTokens: proposed.reduce((sum, text) => sum + words(text), 0),
      scoringCalls: 3,
    });
    // Tokens run through the PRM, as the backend counted them.
    expect(result.counts).toMatchObject({ scoredTokens: backend.tokensSeen, scoredTokensExact: true });
    expect(policy.requests.map((request) => [request.steps.length, request.count])).toEqual([
      [0, 4],
      [1, 2],
      [1, 2],
      [2, 2],
      [2, 2],
    ]);
  });

  it('can choose by weighted vote, and aggregate the final choice by min', async () => {
    const { prm } = createRulePrm();
    const result = await search(prm, createScriptedPolicy({ script: beamScript }), problem, {
      strategy: 'beam',
      n: 4,
      beamWidth: 2,
      pickBy: 'min',
      select: 'weighted-vote',
    });
    expect(result.solutions.map((solution) => Number(solution.score.toFixed(3)))).toEqual([0.9, 0.5, 0.5, 0.1, 0.1]);
    expect(result.votes[0]).toMatchObject({ normalized: '20', count: 3 });
    expect(result.pick).toBe(0);
  });

  it('ends paths at the step budget and says so', async () => {
    const { prm } = createRulePrm();
    const result = await search(prm, createScriptedPolicy({ script: { '': ['1 + 1 = 2.'], '1 + 1 = 2.': ['2 + 1 = 3.'] } }), problem, {
      strategy: 'beam',
      n: 2,
      beamWidth: 2,
      maxSteps: 2,
    });
    expect(result.solutions.map((solution) => [solution.steps.length, solution.end])).toEqual([[2, 'budget']]);
    expect(result.notes.join('\n')).toMatch(/step budget \(2\) ended 1 path/);
  });
});

describe('DVTS and best-of-N with a scripted policy and a rule PRM', () => {
  const dvtsScript = {
    '': [A, '2 + 3 = 6.', C, '2 + 3 = 7.'],
    [A]: [twenty, '5 * 4 = 24.'],
    [C]: [A, 'The answer is \\boxed{20}.'],
    [`${C}\n${A}`]: [twenty, '5 * 4 = 21.'],
  };

  it('DVTS: each subtree keeps its best expansion', async () => {
    const { prm, backend } = createRulePrm();
    const result = await search(prm, createScriptedPolicy({ script: dvtsScript }), problem, { strategy: 'dvts', n: 4, beamWidth: 2, meter: backend });
    // Subtree 0: A (0.9) over "= 6" (0.1), then A+twenty (0.9) finishes. Subtree 1: C (0.5) over "= 7" (0.1),
    // then C+A (0.9) over C+answer (0.5), then C+A+twenty.
    expect(result.solutions.map((solution) => solution.steps)).toEqual([
      [A, twenty],
      [C, A, twenty],
    ]);
    expect(result.pick).toBe(0);
    expect(result.counts).toMatchObject({ proposals: 10, scoredSteps: 10, iterations: 3 });
    expect(result.counts.scoredTokens).toBe(backend.tokensSeen);
  });

  it('best-of-N: whole solutions stepped from the policy, scored in one pass each', async () => {
    const { prm, backend } = createRulePrm();
    const script = { ...dvtsScript, '2 + 3 = 6.': ['6 * 4 = 24. The answer is \\boxed{24}.'] };
    const result = await search(prm, createScriptedPolicy({ script }), problem, { strategy: 'best-of-n', n: 3, select: 'weighted-vote' });
    expect(result.solutions.map((solution) => [solution.steps, solution.normalized])).toEqual([
      [[A, twenty], '20'],
      [['2 + 3 = 6.', '6 * 4 = 24. The answer is \\boxed{24}.'], '24'],
      [[C, A, twenty], '20'],
    ]);
    expect(result.votes.map((vote) => vote.normalized)).toEqual(['20', '24']);
    expect(result.pick).toBe(0);
    expect(result.counts.scoredTokens).toBe(backend.tokensSeen);
    expect(result.counts.generatedTokens).toBe(
      [A, twenty, '2 + 3 = 6.', '6 * 4 = 24. The answer is \\boxed{24}.', C, A, twenty].reduce((sum, text) => sum + words(text), 0),
    );
  });

  it('refuses a beam width that does not divide n', async () => {
    const { prm } = createRulePrm();
    await expect(search(prm, createScriptedPolicy({ script: {} }), problem, { strategy: 'beam', n: 6, beamWidth: 4 })).rejects.toThrow(
      /the beam width must divide n/,
    );
  });
});

describe('search with the seeded tiny PRM', () => {
  let prm: ProcessRM;
  let meter: ReturnType<typeof meterBackend>;
  beforeAll(async () => {
    const tiny = await ProcessRM.fromTiny({ seed: 0 });
    meter = meterBackend(tiny.backend);
    prm = ProcessRM.fromBackend(meter, tiny.tokenizer, { recipe: tiny.recipe });
  });
  afterAll(() => prm?.dispose());

  // Steps that end where the byte-BPE does not merge the end with the "\n" after it (and, below, steps that do).
  const branching = (ending: string) => (problemText: string, steps: readonly string[]) =>
    steps.length >= 4
      ? undefined
      : Array.from({ length: 5 }, (_, index) =>
          steps.length === 3
            ? `So the answer is \\boxed{${index + steps.length}}`
            : `Step ${steps.length + 1} option ${index}: ${problemText.length % (index + 2)} more${ending}`,
        );

  it.each(['beam', 'dvts'] as const)(
    '%s: incremental and full scoring pick the same solution with the same scores, the incremental one running fewer tokens',
    async (strategy) => {
      const incremental = await search(prm, createScriptedPolicy({ script: branching('') }), problem, { strategy, n: 4, beamWidth: 2, meter });
      const full = await search(prm, createScriptedPolicy({ script: branching('') }), problem, { strategy, n: 4, beamWidth: 2, scoring: 'full', meter });
      expect(incremental.pick).toBe(full.pick);
      expect(incremental.solutions.map((solution) => solution.steps)).toEqual(full.solutions.map((solution) => solution.steps));
      incremental.solutions.forEach((solution, index) =>
        solution.stepScores.forEach((score, step) => expect(score).toBeCloseTo(full.solutions[index]!.stepScores[step]!, 4)),
      );
      expect(incremental.counts.scoredTokens).toBeLessThan(full.counts.scoredTokens);
      expect(incremental.counts.generatedTokens).toBe(full.counts.generatedTokens);
    },
  );

  // The byte-BPE merges a step's final "." with the "\n" that joins the next step: the cache holds
  // the tokens before it, and each extension runs only that token again with its own.
  it('steps ending in "." also run only their own tokens and the one the merge changes', async () => {
    const incremental = await search(prm, createScriptedPolicy({ script: branching('.') }), problem, { strategy: 'beam', n: 4, beamWidth: 2, meter });
    const full = await search(prm, createScriptedPolicy({ script: branching('.') }), problem, { strategy: 'beam', n: 4, beamWidth: 2, scoring: 'full', meter });
    expect(incremental.solutions.map((solution) => solution.steps)).toEqual(full.solutions.map((solution) => solution.steps));
    expect(incremental.pick).toBe(full.pick);
    expect(incremental.counts.scoredTokens).toBeLessThan(full.counts.scoredTokens * 0.75);
  });

  it("runs on a language model's generations (the tiny model's LM head, noise), counting generated tokens", async () => {
    const generator = createTextGenerator(prm.backend, prm.tokenizer, { maxTokens: 12 });
    const result = await search(prm, generatorPolicy(generator, { maxStepTokens: 12, temperature: 1 }), 'Add 2 and 3.', {
      strategy: 'beam',
      n: 4,
      beamWidth: 2,
      maxSteps: 3,
    });
    expect(result.counts.policyCalls).toBe(result.counts.iterations);
    expect(result.counts.proposals).toBe(4 + 4 * (result.counts.iterations - 1));
    expect(result.counts.generatedTokens).toBeGreaterThan(0);
    expect(result.counts.generatedTokens).toBeLessThanOrEqual(result.counts.proposals * 12);
    for (const solution of result.solutions) expect(solution.stepScores).toHaveLength(solution.steps.length);
  });
});
