import { createOrganism, createOrganismPolicy, createOrganismTokenizer, createRandom, deriveSeed as organismSeed, verifySolution } from '@reward-lens/organism';
import { describe, expect, it } from 'vitest';
import { defaultAnswerChecker } from '../answers/answer-checker.js';
import { monteCarloLabels } from '../labels/monte-carlo-labels.js';
import { completeSolutions, statesAnswer } from './complete-solutions.js';
import { deriveSeed } from './derive-seed.js';
import { generatorPolicy, stepLinesPrompt } from './generator-policy.js';

// The organism's policy is a core TextGenerator: search uses it through generatorPolicy, with its
// prompt layout (problem, then one step per line). Only policy loading (`organism:` policies) imports the organism.
const organismPolicy = createOrganismPolicy({ errorProbability: 0.25, rescueProbability: 0.2 });
/**
 * The policy continues a prefix only when its running quantity can take the remaining operations
 * in whole numbers; a flawed item's "27 ÷ 4 = 7" cannot, and the policy refuses it (an
 * InvalidInputError), as it does its success probability.
 */
const continuable = (problem: string, steps: readonly string[]) =>
  steps.every((_, index) => {
    try {
      organismPolicy.successProbability(problem, steps.slice(0, index + 1));
      return true;
    } catch {
      return false;
    }
  });
const items = createOrganism({ seed: 11, steps: [3, 6] })
  .items(60)
  .filter((item) => continuable(item.problem, item.steps))
  .slice(0, 40);
const policy = generatorPolicy(organismPolicy, { name: 'organism', prompt: stepLinesPrompt });

/** The random stream generatorPolicy gives sample `sample` of a request seeded `seed` (the organism seeds its generator from the call's seed). */
const randomOf = (seed: number, sample: number) => createRandom(organismSeed(deriveSeed(seed, sample)));

describe("the organism's policy as a StepPolicy (generatorPolicy with stepLinesPrompt)", () => {
  it('lays out the prompt as the organism reads it', () => {
    expect(stepLinesPrompt('P?', [])).toBe('P?\n');
    expect(stepLinesPrompt('P?', ['a.', 'b.'])).toBe('P?\na.\nb.\n');
  });

  it("proposes the policy's own next step for each sample seed, ending at the answer step (EOS)", async () => {
    const requests = items
      .slice(0, 10)
      .map((item, index) => ({ problem: item.problem, steps: item.steps.slice(0, index % item.steps.length), count: 3, seed: 100 + index }));
    const proposals = await policy.nextSteps(requests);
    const tokenizer = createOrganismTokenizer();
    requests.forEach((request, index) => {
      proposals[index]!.forEach((proposal, sample) => {
        const expected = organismPolicy.nextStep(request.problem, request.steps, randomOf(request.seed, sample))!;
        expect(proposal.text).toBe(expected);
        const answer = expected.startsWith('The answer is');
        expect(proposal.end).toBe(answer ? 'eos' : 'step');
        // Its tokens in the organism's tokenizer, plus the end token after the answer.
        expect(proposal.tokens).toBe(tokenizer.encode(expected).ids.length + (answer ? 1 : 0));
      });
    });
  });

  it("completes a prefix as the policy's complete() does, to the answer step", async () => {
    const requests = items.slice(0, 10).map((item, index) => ({ problem: item.problem, steps: item.steps.slice(0, 1), count: 2, seed: index }));
    const completions = await completeSolutions(policy, requests);
    requests.forEach((request, index) => {
      completions[index]!.forEach((completion, sample) => {
        const expected = organismPolicy.complete(request.problem, request.steps, randomOf(request.seed, sample));
        expect(completion.steps).toEqual(expected.steps);
        expect(completion.end).toBe('eos');
        expect(statesAnswer(completion.steps.at(-1)!)).toBe(true);
      });
    });
  });

  it("the default answer checker reads the organism's answers: 'The answer is N.' only, as the verifier does", () => {
    for (const item of items) {
      const answer = defaultAnswerChecker.extract(item.steps.join('\n'));
      expect(answer?.text, item.id).toBe(String(item.finalAnswer));
      expect(defaultAnswerChecker.equal(answer!.text, String(item.answer), { problem: item.problem })).toBe(item.finalAnswerCorrect);
      expect(item.steps.map((step) => statesAnswer(step))).toEqual(item.steps.map((_, index) => index === item.steps.length - 1));
    }
  });

  it("Monte-Carlo values are the share of the policy's own rollouts the verifier finds right, rollout for rollout", async () => {
    const rollouts = 24;
    for (const item of items.slice(0, 8)) {
      const labels = await monteCarloLabels(policy, { problem: item.problem, steps: [...item.steps], reference: String(item.answer) }, { rollouts, seed: 5 });
      const expected = item.steps.map((_, index) => {
        const k = index + 1;
        if (k === item.steps.length) return item.finalAnswerCorrect ? 1 : 0;
        const prefix = item.steps.slice(0, k);
        let right = 0;
        for (let sample = 0; sample < rollouts; sample++) {
          const completion = organismPolicy.complete(item.problem, prefix, randomOf(deriveSeed(5, k), sample));
          if (verifySolution(item.problem, [...prefix, ...completion.steps]).finalAnswerCorrect) right++;
        }
        return right / rollouts;
      });
      expect(labels.soft, item.id).toEqual(expected);
    }
  });

  it('Monte-Carlo values estimate the closed-form success probability (within 4 binomial standard deviations)', async () => {
    const rollouts = 400;
    const item = items.find((each) => each.firstErrorStep >= 1 && each.steps.length >= 4)!;
    const labels = await monteCarloLabels(policy, { problem: item.problem, steps: [...item.steps], reference: String(item.answer) }, { rollouts, seed: 9 });
    labels.values.forEach((value, k) => {
      const exact = organismPolicy.successProbability(item.problem, item.steps.slice(0, k));
      const spread = Math.sqrt((exact * (1 - exact)) / rollouts);
      expect(Math.abs(value! - exact), `v_${k}`).toBeLessThanOrEqual(4 * spread + 1e-12);
    });
  });
});
