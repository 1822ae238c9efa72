import '@reward-lens/backend-tiny/register';
import { ProcessRM } from '@reward-lens/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRulePrm } from '../testing/rule-prm.js';
import { denseRewards, rewardsAtCharacters } from './dense-rewards.js';

let prm: ProcessRM;
beforeAll(async () => {
  prm = await ProcessRM.fromTiny({ seed: 0 });
});
afterAll(() => prm?.dispose());

const problem = 'Natalia sold 48 clips in April and half as many in May. How many in all?';
const steps = ['In May she sold 48 / 2 = 24 clips.', 'Altogether 48 + 24 = 72 clips.', 'The answer is 72.'];

describe('dense rewards', () => {
  it('places g(p_k) at the read token of each step and zero elsewhere, aligned to prm.tokenize', async () => {
    const pair = prm.tokenize({ problem, steps });
    const scores = (await prm.stepScores([{ problem, steps }])).value.curves[0]!;
    const dense = await denseRewards(prm, { problem, steps }, { transform: (score) => 2 * score });
    expect(dense.rewards).toHaveLength(pair.inputIds.length);
    expect(dense.positions).toEqual(pair.readPositions);
    dense.rewards.forEach((reward, position) => {
      const step = pair.readPositions.indexOf(position);
      if (step < 0) expect(reward).toBe(0);
      else expect(reward).toBeCloseTo(2 * scores[step]!, 5);
    });
    expect(dense.solutionStart).toBe(pair.steps[0]!.tokenSpan[0]);
  });

  it('progress rewards telescope: they sum to V(s_1..K) - V(∅)', async () => {
    const dense = await denseRewards(prm, { problem, steps }, { kind: 'progress' });
    const outcome = (await prm.score([{ problem, steps }])).value.values[0]!;
    const sum = Array.from(dense.rewards).reduce((total, reward) => total + reward, 0);
    expect(dense.values[dense.values.length - 1]).toBeCloseTo(outcome, 5);
    expect(sum).toBeCloseTo(outcome - dense.values[0]!, 5);
    // V(∅) is the reward read at the last token before the first step.
    const curve = (await prm.prefixScores([{ problem, steps }])).value.curves[0]!;
    expect(dense.values[0]).toBe(curve[dense.solutionStart - 1]);
  });

  it('gives exactly the rule PRM’s values: progress from the problem (0.5) through right (0.9) and wrong (0.1) steps', async () => {
    const { prm: rulePrm } = createRulePrm();
    const dense = await denseRewards(
      rulePrm,
      { problem: 'Compute 2 + 3, then double it.', steps: ['2 + 3 = 5.', '5 * 2 = 11.', 'The answer is 11.'] },
      { kind: 'progress' },
    );
    expect(dense.values.map((value) => Number(value.toFixed(3)))).toEqual([0.5, 0.9, 0.1, 0.5]);
    expect(dense.stepRewards.map((value) => Number(value.toFixed(3)))).toEqual([0.4, -0.8, 0.4]);
    const explicit = await denseRewards(rulePrm, { problem: 'Compute 2 + 3.', steps: ['2 + 3 = 5.'] }, { kind: 'progress', initialValue: 0 });
    expect(Number(explicit.stepRewards[0]!.toFixed(3))).toBe(0.9);
  });

  it("moves step rewards onto another tokenizer's tokens by character", async () => {
    const dense = await denseRewards(prm, { problem, steps });
    const pair = prm.tokenize({ problem, steps });
    const solutionChar = pair.steps[0]!.charSpan[0];
    const ownOffsets = pair.offsets.slice(dense.solutionStart).map(([start, end]) => [start - solutionChar, end - solutionChar] as const);
    expect(Array.from(rewardsAtCharacters(dense.stepRewards, dense.stepEnds, ownOffsets))).toEqual(Array.from(dense.rewards.subarray(dense.solutionStart)));
    // A character-level tokenizer: the reward sits on each step's last character.
    const text = steps.join('\n');
    const characters = Array.from(text, (_, index) => [index, index + 1] as const);
    const placed = rewardsAtCharacters(dense.stepRewards, dense.stepEnds, characters);
    expect(dense.stepEnds.map((end) => text[end - 1])).toEqual(['.', '.', '.']);
    dense.stepEnds.forEach((end, step) => expect(placed[end - 1]).toBe(Math.fround(dense.stepRewards[step]!)));
  });
});
