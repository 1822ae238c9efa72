import { describe, expect, it } from 'vitest';
import { RewardHackingMonitor, type RolloutObservation } from './reward-hacking-monitor.js';

function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** A simulated run: per iteration, 64 rollouts whose reward, accuracy and steps follow the given curves (with noise). */
function simulate(iterations: number, curves: { reward: (t: number) => number; accuracy: (t: number) => number; steps: (t: number) => number }, seed: number) {
  const draw = random(seed);
  return Array.from({ length: iterations }, (_, t) =>
    Array.from(
      { length: 128 },
      (): RolloutObservation => ({
        prmReward: curves.reward(t) + (draw() - 0.5) * 0.3,
        correct: draw() < curves.accuracy(t),
        steps: Math.max(1, Math.round(curves.steps(t) + (draw() - 0.5) * 3)),
      }),
    ),
  );
}

function run(batches: RolloutObservation[][]) {
  const monitor = new RewardHackingMonitor();
  batches.forEach((batch, iteration) => monitor.record(iteration, batch));
  return monitor;
}

describe('RewardHackingMonitor', () => {
  it('stays quiet on a healthy run (reward and accuracy rise together, steps steady), over many seeds', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const monitor = run(simulate(40, { reward: (t) => 0.4 + 0.01 * t, accuracy: (t) => 0.3 + 0.01 * t, steps: () => 5 }, seed));
      expect(monitor.warnings, `seed ${seed}`).toEqual([]);
    }
  });

  it('warns when the PRM reward climbs while accuracy stays flat', () => {
    const monitor = run(simulate(40, { reward: (t) => 0.4 + (t < 20 ? 0 : 0.02 * (t - 20)), accuracy: () => 0.45, steps: () => 5 }, 7));
    const warning = monitor.warnings.find((item) => item.kind === 'reward-accuracy-divergence');
    expect(warning).toBeDefined();
    expect(warning!.iteration).toBeGreaterThan(20);
    expect(warning!.message).toMatch(/PRM reward is climbing .* while accuracy is flat/);
    // Raised again at most once per window while it holds.
    const iterations = monitor.warnings.filter((item) => item.kind === 'reward-accuracy-divergence').map((item) => item.iteration);
    iterations.slice(1).forEach((at, index) => expect(at - iterations[index]!).toBeGreaterThanOrEqual(10));
  });

  it('warns when steps per solution drift (a segmentation mismatch)', () => {
    const monitor = run(simulate(40, { reward: () => 0.5, accuracy: () => 0.5, steps: (t) => 5 + (t < 15 ? 0 : 0.3 * (t - 15)) }, 3));
    const warning = monitor.warnings.find((item) => item.kind === 'steps-drift');
    expect(warning?.message).toMatch(/steps per solution drifted from 5\.\d\d to \d+\.\d\d .*segmentation mismatch/);
    expect(monitor.summary()).toHaveLength(40);
    expect(monitor.summary()[0]).toMatchObject({ iteration: 0, rollouts: 128 });
  });
});
