import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arithmeticRule } from '../testing/rule-prm.js';
import { chainPrefixValue, chainProblem, chainSolution, chainSuccessProbability, createChainPolicy } from '../testing/chain-policy.js';
import { consensusFilter } from './consensus.js';
import type { PrefixValue, PrefixValueStore } from './label-types.js';
import { monteCarloLabels } from './monte-carlo-labels.js';
import { toTrlRecord } from './trl-record.js';

const addends = [3, 5, 7, 2, 9, 4];
const problem = chainProblem(addends);
const reference = String(addends.reduce((sum, value) => sum + value, 0));

function memoryStore(): PrefixValueStore & { values: Map<number, PrefixValue> } {
  const values = new Map<number, PrefixValue>();
  return { values, get: (k) => values.get(k), put: (value) => void values.set(value.k, value) };
}

describe('the chain policy (synthetic, success probabilities in closed form)', () => {
  it('has the closed form of its two-state recurrence (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 30 }), (p, q, m) => {
        let right = 1;
        let wrong = 0;
        for (let step = 0; step < m; step++) [right, wrong] = [p * right + (1 - p) * wrong, q * right + (1 - q) * wrong];
        expect(chainSuccessProbability({ stepSuccess: p, rescue: q }, true, m)).toBeCloseTo(right, 9);
        expect(chainSuccessProbability({ stepSuccess: p, rescue: q }, false, m)).toBeCloseTo(wrong, 9);
      }),
      { numRuns: 300 },
    );
  });
});

describe('Monte-Carlo step labels against closed-form success probabilities', () => {
  it('estimates every v_k within sampling error of the truth (a full sweep, N = 400)', async () => {
    const options = { stepSuccess: 0.9, rescue: 0.2 };
    const steps = chainSolution(addends, 2, 4);
    const labels = await monteCarloLabels(createChainPolicy(options), { problem, steps, reference }, { rollouts: 400, seed: 3 });
    expect(labels.values).toHaveLength(steps.length + 1);
    labels.values.forEach((estimate, k) => {
      const truth = chainPrefixValue(options, problem, steps, k);
      const sigma = Math.sqrt((truth * (1 - truth)) / 400);
      expect(Math.abs(estimate! - truth), `v_${k}: ${estimate} vs ${truth}`).toBeLessThanOrEqual(4.5 * sigma + 1e-12);
    });
    // The whole solution states a wrong answer: v_K is read off it, no rollouts.
    expect(labels.values[steps.length]).toBe(0);
    expect(labels.completions).toBe(400 * steps.length);
    expect(labels.fullSweepCompletions).toBe(400 * steps.length);
    expect(labels.progress.reduce((sum, value) => sum + value, 0)).toBeCloseTo(labels.values[steps.length]! - labels.values[0]!, 12);
  });

  it('hard labels call a wrong prefix "correct" at the closed-form rate 1 - (1 - v)^N, which grows with N', async () => {
    const options = { stepSuccess: 0.8, rescue: 0.15 };
    const K = 5;
    const chain = addends.slice(0, K);
    const chainText = chainProblem(chain);
    const steps = chainSolution(chain, 1, 3);
    const policy = createChainPolicy(options);
    const solutions = 200;
    const wrongValue = chainSuccessProbability(options, false, K - 2); // the prefix s_1..s_2 holds the error
    const rightValue = chainSuccessProbability(options, true, K - 1); // s_1 is right
    const rates: number[] = [];
    for (const rollouts of [1, 4, 16]) {
      let falseCorrect = 0;
      let trueCorrect = 0;
      for (let seed = 0; seed < solutions; seed++) {
        const labels = await monteCarloLabels(policy, { problem: chainText, steps, reference: String(chain.reduce((a, b) => a + b, 0)) }, { rollouts, seed });
        if (labels.hard[1]) falseCorrect++;
        if (labels.hard[0]) trueCorrect++;
      }
      const expectedFalse = 1 - (1 - wrongValue) ** rollouts;
      const expectedTrue = 1 - (1 - rightValue) ** rollouts;
      const sigma = (rate: number) => Math.sqrt((rate * (1 - rate)) / solutions) + 1e-9;
      expect(Math.abs(falseCorrect / solutions - expectedFalse), `false-correct rate at N=${rollouts}`).toBeLessThanOrEqual(4 * sigma(expectedFalse) + 0.01);
      expect(Math.abs(trueCorrect / solutions - expectedTrue), `true-correct rate at N=${rollouts}`).toBeLessThanOrEqual(4 * sigma(expectedTrue) + 0.01);
      rates.push(falseCorrect / solutions);
    }
    expect(rates[2]).toBeGreaterThan(rates[0]!);
  });

  it('binary search finds the planted first error in about log2 K prefixes', async () => {
    const options = { stepSuccess: 0.95, rescue: 0 };
    const long = [4, 8, 1, 6, 3, 9, 2, 7, 5, 8, 6, 1, 3, 2, 9, 4];
    const longProblem = chainProblem(long);
    const longReference = String(long.reduce((a, b) => a + b, 0));
    const policy = createChainPolicy(options);
    for (let errorAt = 0; errorAt < long.length; errorAt++) {
      const steps = chainSolution(long, errorAt, 2);
      const binary = await monteCarloLabels(policy, { problem: longProblem, steps, reference: longReference }, { rollouts: 32, mode: 'binary', seed: errorAt });
      expect(binary.firstError).toBe(errorAt);
      expect(binary.hard).toEqual(Array.from({ length: errorAt + 1 }, (_, index) => index < errorAt));
      // v_0, v_K (free: the solution states its answer), then at most ceil(log2 16) = 4 probes.
      expect(binary.completions).toBeLessThanOrEqual(32 * (1 + Math.ceil(Math.log2(long.length))));
      expect(binary.fullSweepCompletions).toBe(32 * long.length);
    }
    const correct = await monteCarloLabels(
      policy,
      { problem: longProblem, steps: chainSolution(long), reference: longReference },
      { rollouts: 32, mode: 'binary' },
    );
    expect(correct).toMatchObject({ firstError: null, completions: 32 });
    expect(correct.hard).toEqual(long.map(() => true));
  });

  it('reuses stored prefix values: a second run spends nothing and labels the same', async () => {
    const policy = createChainPolicy({ stepSuccess: 0.9, rescue: 0.1 });
    const input = { problem, steps: chainSolution(addends, 3), reference };
    const store = memoryStore();
    const first = await monteCarloLabels(policy, input, { rollouts: 16, store, seed: 9 });
    expect(store.values.size).toBe(addends.length + 1);
    const again = await monteCarloLabels(policy, input, { rollouts: 16, store, seed: 9 });
    expect(again.completions).toBe(0);
    expect({ ...again, completions: first.completions }).toEqual(first);
    const fresh = await monteCarloLabels(policy, input, { rollouts: 16, seed: 9 });
    expect(fresh.values).toEqual(first.values);
  });
});

describe('consensus filtering and TRL rows', () => {
  const policy = createChainPolicy({ stepSuccess: 0.95, rescue: 0 });
  // A judge that checks each step's arithmetic: it cannot see a wrong total copied from the step before.
  const arithmeticJudge = (_problem: string, steps: readonly string[]) => steps.map((step) => arithmeticRule(step) > 0.5);

  it('keeps a solution when the MC first error and the judge agree, drops it when they do not', async () => {
    const agreeing = { problem, steps: chainSolution(addends, 2), reference };
    const labels = await monteCarloLabels(policy, agreeing, { rollouts: 32, seed: 1 });
    expect(labels.firstError).toBe(2);
    expect(await consensusFilter(agreeing, labels, arithmeticJudge)).toMatchObject({ keep: true, judgeFirstError: 2, keptSteps: addends.length });
    // The judge passes every later step (their arithmetic holds); the MC labels mark them wrong.
    const { agree } = await consensusFilter(agreeing, labels, arithmeticJudge);
    expect(agree).toEqual([true, true, true, false, false, false]);
    const prefix = await consensusFilter(agreeing, labels, arithmeticJudge, 'prefix');
    expect(prefix).toMatchObject({ keep: true, keptSteps: 3 });
    expect(toTrlRecord(agreeing, labels, 'hard', prefix.keptSteps)).toEqual({
      prompt: problem,
      completions: agreeing.steps.slice(0, 3),
      labels: [true, true, false],
    });
    const disagreeing = await consensusFilter(agreeing, labels, () => addends.map(() => true));
    expect(disagreeing).toMatchObject({ keep: false, judgeFirstError: null });
  });

  it('writes hard and soft TRL rows; soft labels need a sweep', async () => {
    const input = { problem, steps: chainSolution(addends, 4), reference };
    const sweep = await monteCarloLabels(policy, input, { rollouts: 8, seed: 2 });
    const hard = toTrlRecord(input, sweep, 'hard');
    expect(hard).toEqual({ prompt: problem, completions: input.steps, labels: sweep.hard });
    expect(hard.labels.slice(4)).toEqual([false, false]);
    expect(toTrlRecord(input, sweep, 'soft').labels).toEqual(sweep.soft);
    const binary = await monteCarloLabels(policy, input, { rollouts: 8, mode: 'binary', seed: 2 });
    expect(toTrlRecord(input, binary, 'hard').completions).toEqual(input.steps.slice(0, 5));
    expect(() => toTrlRecord(input, binary, 'soft')).toThrow(/soft labels need a full sweep/);
  });
});
