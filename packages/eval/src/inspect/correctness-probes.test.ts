import { ProcessRM } from '@reward-lens/core';
import '@reward-lens/backend-tiny/register';
import { describe, expect, it } from 'vitest';
import { auroc } from '../metrics/auroc.js';
import { createSeededRandom } from '../random/seeded-random.js';
import { labelledSteps, probeBattery, type LabelledSolution } from './correctness-probes.js';

/** Steps that claim a digit is even, correct exactly when it is: the signal sits in the step's last token. */
function paritySolutions(count: number, seed: number): LabelledSolution[] {
  const random = createSeededRandom(seed);
  return Array.from({ length: count }, () => {
    const steps = Array.from({ length: 2 + random.integer(0, 2) }, () => `even ${random.integer(0, 9)}`);
    return { problem: 'Check each claim.', steps, stepLabels: steps.map((step) => (Number(step.at(-1)) % 2 === 0 ? 1 : 0)) };
  });
}

describe('labelledSteps', () => {
  it('labels ProcessBench steps: correct before the error, wrong at it, left out after', () => {
    expect(labelledSteps({ problem: 'p', steps: ['a', 'b', 'c', 'd'], label: 1 }).stepLabels).toEqual([1, 0, Number.NaN, Number.NaN]);
    expect(labelledSteps({ problem: 'p', steps: ['a', 'b'], label: -1 }).stepLabels).toEqual([1, 1]);
  });
});

describe('probeBattery', () => {
  it('finds the layers that carry a known signal, and measures the reward head beside them on held-out solutions', async () => {
    const prm = await ProcessRM.fromTiny({ seed: 0 });
    const solutions = paritySolutions(160, 4);
    const battery = await probeBattery(prm, solutions, { heldOutFraction: 0.3, seed: 1 });
    expect(battery.layers.map((row) => row.layer)).toEqual([0, 1, 2]);
    expect(battery.heldOut.solutions).toBe(48);
    expect(battery.fitting.solutions).toBe(112);
    expect(battery.fitting.steps + battery.heldOut.steps).toBe(solutions.reduce((total, solution) => total + solution.steps.length, 0));
    // At layer 0 the read position holds the digit's own embedding: parity of ten random vectors is linearly separable.
    expect(battery.layers[0]!.probe.accuracy).toBeGreaterThan(0.95);
    expect(battery.layers[0]!.probe.accuracy).toBeGreaterThan(battery.majorityAccuracy + 0.3);
    expect(battery.heldOut.steps).toBeGreaterThan(50);
    // Same seed, same battery.
    expect(await probeBattery(prm, solutions, { heldOutFraction: 0.3, seed: 1, layers: [0] })).toMatchObject({ layers: [battery.layers[0]] });
  });

  it('measures the head on the held-out solutions: its AUROC and accuracy are those of their step scores at that layer', async () => {
    const prm = await ProcessRM.fromTiny({ seed: 0 });
    const solutions = paritySolutions(40, 9);
    const battery = await probeBattery(prm, solutions, { heldOutFraction: 0.5, seed: 2, layers: [1] });
    expect(battery.heldOutIndices).toHaveLength(20);
    const held = battery.heldOutIndices.map((index) => solutions[index]!);
    const scores = await prm.stepScores(
      held.map((solution) => ({ problem: solution.problem, steps: solution.steps })),
      { layer: 1 },
    );
    const steps = held.flatMap((solution, index) => solution.stepLabels.map((label, step) => ({ label, score: scores.value.curves[index]![step]! })));
    const [row] = battery.layers;
    expect(row!.head.auroc).toBe(
      auroc(
        steps.filter((entry) => entry.label === 1).map((entry) => entry.score),
        steps.filter((entry) => entry.label === 0).map((entry) => entry.score),
      ),
    );
    expect(row!.head.accuracy).toBe(steps.filter((entry) => entry.score >= row!.head.threshold === (entry.label === 1)).length / steps.length);
    await expect(probeBattery(prm, solutions.slice(0, 1))).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
