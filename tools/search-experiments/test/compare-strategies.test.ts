import { createOrganism, createOrganismPolicy, createRandom, verifySolution } from '@reward-lens/organism';
import { describe, expect, it } from 'vitest';
import { compareOnProblem, strategyNames, summarize, type StrategyOutcome } from '../src/lib/compare-strategies.js';
import { createVerifierPrm, verifierRule } from '../src/lib/verifier-prm.js';
import { generatorPolicy, stepLinesPrompt, type StepPolicy } from '@reward-lens/search';

const item = createOrganism({ seed: 5, steps: [4, 4], correctFraction: 0 }).item(0);
const right = createOrganismPolicy({ errorProbability: 0 });
const wrong = createOrganismPolicy({ errorProbability: 1, rescueProbability: 0 });
const words = (text: string) => text.split(' ').length;

/**
 * Sample i of every request proposes the right next step when i is odd and a wrong one when it is
 * even (the organism's writer, each from a fixed stream), whatever was asked before. A whole
 * solution sampled one step at a time (one sample per request) is therefore wrong from its first
 * step, while a search that keeps the better of two proposals walks the right path.
 */
const alternating: StepPolicy = {
  name: 'alternating',
  async nextSteps(requests) {
    return requests.map((request) =>
      Array.from({ length: request.count }, (_, sample) => {
        const writer = sample % 2 === 1 ? right : wrong;
        const text = writer.nextStep(request.problem, request.steps, createRandom(1));
        return text === null ? { text: '', tokens: 1, end: 'eos' as const } : { text, tokens: words(text), end: 'step' as const };
      }),
    );
  },
};

describe('the organism verifier as a PRM', () => {
  it("scores each step 1 while the solution has no error, else 0: ProcessBench's labels, read from the text", async () => {
    const { prm } = createVerifierPrm();
    const items = createOrganism({ seed: 2 }).items(20);
    const scores = await prm.stepScores(items.map((each) => ({ problem: each.problem, steps: [...each.steps] })));
    items.forEach((each, index) => {
      expect(Array.from(scores.value.curves[index]!), each.id).toEqual(
        each.steps.map((_, step) => (each.firstErrorStep === -1 || step < each.firstErrorStep ? 1 : 0)),
      );
    });
    expect(verifierRule('no blank line')).toBe(0);
    expect(verifierRule(`${item.problem}\n\n`)).toBe(0);
  });
});

describe('compareOnProblem', () => {
  it('with the verifier as PRM, beam search and DVTS find the right path that none of the N samples holds', async () => {
    const { prm, backend } = createVerifierPrm();
    const outcomes = await compareOnProblem(prm, alternating, item.problem, { n: 2, beamWidth: 2, maxSteps: 8, seed: 3, meter: backend });
    expect(outcomes.map((outcome) => outcome.strategy)).toEqual([...strategyNames]);
    const verdicts = Object.fromEntries(outcomes.map((outcome) => [outcome.strategy, [outcome.correct, outcome.processCorrect]]));
    expect(verdicts).toEqual({
      'first sample': [false, false],
      'majority vote': [false, false],
      'best-of-N': [false, false],
      'weighted vote': [false, false],
      'beam search': [true, true],
      DVTS: [true, true],
      'any of the N samples': [false, false],
    });
    // Both samples take the wrong step at every step; beam search proposes b = 2 steps per step and keeps one.
    const wrongPath: string[] = [];
    for (let step = wrong.nextStep(item.problem, [], createRandom(1)); step !== null; step = wrong.nextStep(item.problem, wrongPath, createRandom(1))) {
      wrongPath.push(step);
      if (step.startsWith('The answer is')) break;
    }
    expect(verifySolution(item.problem, wrongPath).finalAnswerCorrect).toBe(false);
    const byName = new Map(outcomes.map((outcome) => [outcome.strategy, outcome]));
    const sampleTokens = wrongPath.reduce((sum, step) => sum + words(step), 0);
    expect(byName.get('best-of-N')!.generatedTokens).toBe(2 * sampleTokens);
    expect(byName.get('first sample')!.generatedTokens).toBe(sampleTokens);
    expect(byName.get('majority vote')!.scoredTokens).toBe(0);
    expect(byName.get('beam search')!.scoredTokens).toBeGreaterThan(0);
  });

  it('an error-free policy makes every strategy right, whatever the PRM', async () => {
    const { prm } = createVerifierPrm();
    const policy = generatorPolicy(right, { prompt: stepLinesPrompt });
    const outcomes = await compareOnProblem(prm, policy, item.problem, { n: 4, beamWidth: 2, maxSteps: 8, seed: 0 });
    expect(outcomes.every((outcome) => outcome.correct && outcome.processCorrect)).toBe(true);
  });
});

describe('summarize', () => {
  it('averages each strategy over the problems', () => {
    const outcome = (strategy: StrategyOutcome['strategy'], correct: boolean, processCorrect: boolean, tokens: number): StrategyOutcome => ({
      strategy,
      correct,
      processCorrect,
      generatedTokens: tokens,
      scoredTokens: 2 * tokens,
    });
    const problems = [
      strategyNames.map((name) => outcome(name, true, false, 10)),
      strategyNames.map((name) => outcome(name, name === 'DVTS', name === 'DVTS', 30)),
    ];
    const summaries = summarize(problems);
    expect(summaries.find((summary) => summary.strategy === 'DVTS')).toEqual({
      strategy: 'DVTS',
      problems: 2,
      accuracy: 1,
      processAccuracy: 0.5,
      generatedTokens: 20,
      scoredTokens: 40,
    });
    expect(summaries.find((summary) => summary.strategy === 'best-of-N')).toMatchObject({ accuracy: 0.5, processAccuracy: 0 });
  });
});
