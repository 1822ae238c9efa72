import { describe, expect, it } from 'vitest';
import { AdamW, clipGradientNorm } from './adamw.js';
import { learningRateAt } from './learning-rate.js';

describe('AdamW', () => {
  it('takes a first step of lr·sign(g) (bias-corrected moments), plus decoupled decay on weights only', () => {
    const weight = Float32Array.of(1, -2, 0.5);
    const bias = Float32Array.of(0.25);
    const optimizer = new AdamW(
      new Map([
        ['layer.weight', weight],
        ['layer.bias', bias],
      ]),
      { weightDecay: 0.1, epsilon: 0 },
    );
    optimizer.step(
      new Map([
        ['layer.weight', Float32Array.of(0.3, -4, 1e-3)],
        ['layer.bias', Float32Array.of(-2)],
      ]),
      0.01,
    );
    expect([...weight].map((value) => Number(value.toFixed(6)))).toEqual(
      [1 - 0.01 * (1 + 0.1), -2 + 0.01 * (1 + 0.2), 0.5 - 0.01 * (1 + 0.05)].map((value) => Number(value.toFixed(6))),
    );
    expect(bias[0]).toBeCloseTo(0.26, 7);
    expect(optimizer.state.step).toBe(1);
  });

  it('follows the moments over several steps as the update rule says', () => {
    const parameter = Float32Array.of(0);
    const optimizer = new AdamW(new Map([['w.weight', parameter]]), { beta1: 0.5, beta2: 0.75, epsilon: 0, weightDecay: 0 });
    let m = 0;
    let v = 0;
    let expected = 0;
    for (const [step, g] of [1, -3, 2].entries()) {
      m = 0.5 * m + 0.5 * g;
      v = 0.75 * v + 0.25 * g * g;
      expected -= 0.1 * (m / (1 - 0.5 ** (step + 1)) / Math.sqrt(v / (1 - 0.75 ** (step + 1))));
      optimizer.step(new Map([['w.weight', Float32Array.of(g)]]), 0.1);
      expect(parameter[0]).toBeCloseTo(expected, 6);
    }
  });

  it('clips the global norm and reports it', () => {
    const gradients = new Map([
      ['a', Float32Array.of(3, 0)],
      ['b', Float32Array.of(4)],
    ]);
    expect(clipGradientNorm(gradients, 1)).toBeCloseTo(5, 6);
    expect([...gradients.get('a')!, ...gradients.get('b')!].map((value) => Number(value.toFixed(6)))).toEqual([0.6, 0, 0.8]);
    expect(clipGradientNorm(gradients, 10)).toBeCloseTo(1, 6);
  });
});

describe('learningRateAt', () => {
  const schedule = { peak: 1, minimum: 0.1, warmupSteps: 4, totalSteps: 14 };
  it('warms up linearly, then decays along a cosine to the minimum', () => {
    expect([0, 1, 2, 3].map((step) => learningRateAt(schedule, step))).toEqual([0.25, 0.5, 0.75, 1]);
    expect(learningRateAt(schedule, 4)).toBeCloseTo(1, 12);
    expect(learningRateAt(schedule, 9)).toBeCloseTo(0.55, 12);
    expect(learningRateAt(schedule, 14)).toBeCloseTo(0.1, 12);
    expect(learningRateAt(schedule, 40)).toBeCloseTo(0.1, 12);
  });
});
