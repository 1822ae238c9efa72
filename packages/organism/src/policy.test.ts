import { InvalidInputError } from '@reward-lens/core';
import { describe, expect, it } from 'vitest';
import { createOrganism } from './organism.js';
import { createOrganismPolicy } from './policy.js';
import { createRandom } from './random.js';
import { policySuccessProbability } from './success-probability.js';
import { verifySolution } from './verify-solution.js';

const organism = createOrganism({ seed: 3, steps: [8, 8], correctFraction: 0, errorKinds: ['wrong-result'] });
// An 8-step solution with a wrong result early on: prefixes are on track before it, off track from it on.
const item = organism.items(40).find((candidate) => candidate.firstErrorStep >= 1 && candidate.firstErrorStep <= 3)!;
const rollouts = 20_000;

describe('policySuccessProbability', () => {
  it('reduces to (1 − p)ⁿ without rescue, and follows the two-state chain step by step', () => {
    expect(policySuccessProbability(0.2, 0, 5, true)).toBeCloseTo(0.8 ** 5, 12);
    expect(policySuccessProbability(0.2, 0, 5, false)).toBe(0);
    expect(policySuccessProbability(0.3, 0.4, 0, true)).toBe(1);
    expect(policySuccessProbability(0.3, 0.4, 0, false)).toBeCloseTo(0, 12);
    // One step of the chain: on → on (1 − p), off → on (pρ).
    const [p, rho] = [0.3, 0.4];
    for (let n = 1; n <= 10; n++) {
      const on = policySuccessProbability(p, rho, n - 1, true);
      const off = policySuccessProbability(p, rho, n - 1, false);
      expect(policySuccessProbability(p, rho, n, true)).toBeCloseTo((1 - p) * on + p * off, 12);
      expect(policySuccessProbability(p, rho, n, false)).toBeCloseTo(p * rho * on + (1 - p * rho) * off, 12);
    }
  });
});

describe('createOrganismPolicy', () => {
  it(`success rates of ${rollouts} rollouts match the closed form within 4 binomial standard deviations`, () => {
    expect(item.firstErrorStep).toBeGreaterThan(0);
    const policy = createOrganismPolicy({ errorProbability: 0.2, rescueProbability: 0.3 });
    const prefixes = [0, item.firstErrorStep, item.firstErrorStep + 1, item.steps.length - 1];
    const report: string[] = [];
    for (const [index, length] of prefixes.entries()) {
      const prefix = item.steps.slice(0, length);
      const exact = policy.successProbability(item.problem, prefix);
      const successes = policy.rollouts(item.problem, prefix, rollouts, 1000 + index).filter((rollout) => rollout.finalAnswerCorrect).length;
      const rate = successes / rollouts;
      const sigma = Math.sqrt((exact * (1 - exact)) / rollouts);
      report.push(`prefix ${length}: closed form ${exact.toFixed(4)}, simulated ${rate.toFixed(4)}, z ${((rate - exact) / sigma).toFixed(2)}`);
      expect(Math.abs(rate - exact), report.join('\n')).toBeLessThanOrEqual(4 * sigma);
    }
    console.info(report.join('\n'));
  }, 120_000);

  it('with ρ = 0 a prefix off track never succeeds, and one on track succeeds with (1 − p)ⁿ', () => {
    const policy = createOrganismPolicy({ errorProbability: 0.25, rescueProbability: 0 });
    const off = item.steps.slice(0, item.firstErrorStep + 1);
    expect(policy.successProbability(item.problem, off)).toBe(0);
    expect(policy.rollouts(item.problem, off, 500, 1).some((rollout) => rollout.finalAnswerCorrect)).toBe(false);
    expect(policy.successProbability(item.problem, [])).toBeCloseTo(0.75 ** item.steps.length, 12);
  });

  it('writes steps the verifier reads as it tracks them', () => {
    const policy = createOrganismPolicy({ errorProbability: 0.4, rescueProbability: 0.5 });
    for (let seed = 0; seed < 300; seed++) {
      const source = organism.item(seed % 20);
      const random = createRandom(seed);
      const prefix = source.steps.slice(0, seed % source.steps.length);
      const rollout = policy.complete(source.problem, prefix, random);
      const verification = verifySolution(source.problem, [...prefix, ...rollout.steps]);
      expect(verification.progress.answered).toBe(true);
      expect(verification.finalAnswerCorrect).toBe(rollout.finalAnswerCorrect);
      expect(verification.steps.some((step) => step.verdict === 'unparseable' || step.verdict === 'inconsistent')).toBe(false);
      // Each step written continues from where the verifier says the solution stands.
      for (let length = prefix.length; length < prefix.length + rollout.steps.length; length++) {
        const steps = [...prefix, ...rollout.steps].slice(0, length);
        expect(() => policy.successProbability(source.problem, steps)).not.toThrow();
      }
    }
  });

  it('an answered prefix is settled; the next step of it is null', () => {
    const policy = createOrganismPolicy();
    expect(policy.successProbability(item.problem, item.steps)).toBe(item.finalAnswerCorrect ? 1 : 0);
    expect(policy.nextStep(item.problem, item.steps, createRandom(1))).toBeNull();
    expect(policy.nextStep(item.problem, [], createRandom(1))).toMatch(/ = \d+ [a-z]+\.$/);
  });

  it('is a TextGenerator: one step per call with a newline stop, the same text for a seed whatever the batch', async () => {
    const policy = createOrganismPolicy({ errorProbability: 0.3 });
    const prompt = `${item.problem}\n${item.steps.slice(0, 2).join('\n')}\n`;
    const [alone] = await policy.generate([prompt], { stop: ['\n'], seed: 9 });
    const batch = await policy.generate([`${item.problem}\n`, prompt, prompt], { stop: ['\n'], seed: 9 });
    expect(batch[1]).toEqual(alone);
    expect(batch[2]).toEqual(alone);
    expect(alone!.stopReason).toBe('stop-string');
    expect(alone!.text).not.toContain('\n');
    expect(alone!.fullText).toBe(prompt + alone!.text);
    // The step is what complete() writes first from the same seed's stream.
    const whole = await policy.generate([prompt], { seed: 9 });
    expect(whole[0]!.text.startsWith(alone!.text)).toBe(true);
    expect(whole[0]!.text).toMatch(/The answer is \d+\.$/);
    expect(whole[0]!.stopReason).toBe('stop-token');
    const others = await Promise.all([1, 2, 3, 4, 5].map((seed) => policy.generate([prompt], { seed })));
    expect(new Set(others.map(([generation]) => generation!.text)).size).toBeGreaterThan(1);
  });

  it('honours maxTokens and includeStop, and continues a prompt without a final newline on a new line', async () => {
    const policy = createOrganismPolicy({ errorProbability: 0 });
    const prompt = `${item.problem}\n${item.steps[0]}`;
    const [cut] = await policy.generate([`${prompt}\n`], { maxTokens: 5, seed: 1 });
    expect(cut!.tokenIds).toHaveLength(5);
    expect(cut!.stopReason).toBe('max-tokens');
    const [kept] = await policy.generate([`${prompt}\n`], { stop: ['\n'], includeStop: true, seed: 1 });
    expect(kept!.text.endsWith('\n')).toBe(true);
    const [newLine] = await policy.generate([prompt], { seed: 1 });
    expect(newLine!.text.startsWith('\n')).toBe(true);
    // With p = 0 the policy is a perfect solver.
    expect(verifySolution(item.problem, newLine!.fullText.split('\n').slice(1))).toMatchObject({ firstErrorStep: -1, finalAnswerCorrect: true });
  });

  it('rejects options out of range and prefixes it cannot continue in whole numbers', () => {
    expect(() => createOrganismPolicy({ errorProbability: 1.5 })).toThrow(InvalidInputError);
    expect(() => createOrganismPolicy({ errorKinds: [] })).toThrow(/errorKinds/);
    const problem = 'Ann has 12 boxes. She splits the boxes into 4 equal groups and keeps one group. How many boxes does Ann have now?';
    expect(createOrganismPolicy().successProbability(problem, [])).toBeGreaterThan(0.5);
    expect(() => createOrganismPolicy().successProbability(problem.replace('12 boxes', '12 boxes. She buys 1 more box'), [])).toThrow(/not a whole number/);
  });
});
