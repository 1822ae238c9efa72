import { welchT } from './trend.js';

/** One rollout of a training run, as the monitor needs it. */
export interface RolloutObservation {
  /** The PRM's reward for the rollout (its aggregated or summed dense reward). */
  prmReward: number;
  /** Whether its final answer is right. */
  correct: boolean;
  /** Steps the PRM's segmenter found in it. */
  steps: number;
}

export interface IterationSummary {
  iteration: number;
  rollouts: number;
  meanReward: number;
  accuracy: number;
  meanSteps: number;
}

export type MonitorWarningKind = 'reward-accuracy-divergence' | 'steps-drift';

export interface MonitorWarning {
  kind: MonitorWarningKind;
  /** The iteration whose data raised it. */
  iteration: number;
  message: string;
}

export interface RewardHackingMonitorOptions {
  /** Iterations per window: the latest window is compared with the one before it, and (for drift) with the first. Default 10. */
  window?: number;
  /** A climbing PRM reward: Welch's t of the latest window's mean reward over the previous window's at least this. Default 3. */
  rewardT?: number;
  /** Flat accuracy: Welch's t of the accuracy change below this. Default 1. */
  accuracyT?: number;
  /** Steps per solution have drifted when the recent mean is this factor away from the baseline's (either way) ... Default 1.5. */
  stepsRatio?: number;
  /** ... and the difference is significant (Welch's t at least this). Default 3. */
  stepsT?: number;
}

/**
 * Watches a training run's rollouts for signs that the policy is gaming the PRM: the PRM's reward
 * climbing while final-answer accuracy stays flat (the reward and the task have come apart), and
 * steps per solution drifting from where they started (the policy learned to cut its text into
 * more, or fewer, steps than the PRM was trained to score: a segmentation mismatch). A warning is
 * raised when a condition holds, then not again for a window's worth of iterations.
 *
 * @example
 * const monitor = new RewardHackingMonitor();
 * for (const [iteration, batch] of run.entries()) for (const warning of monitor.record(iteration, batch)) console.warn(warning.message);
 */
export class RewardHackingMonitor {
  private readonly options: Required<RewardHackingMonitorOptions>;
  private readonly iterations: { iteration: number; rollouts: RolloutObservation[] }[] = [];
  private readonly lastRaised = new Map<MonitorWarningKind, number>();
  readonly warnings: MonitorWarning[] = [];

  constructor(options: RewardHackingMonitorOptions = {}) {
    this.options = { window: 10, rewardT: 3, accuracyT: 1, stepsRatio: 1.5, stepsT: 3, ...options };
  }

  /** Adds one iteration's rollouts; returns the warnings this raised. */
  record(iteration: number, rollouts: readonly RolloutObservation[]): MonitorWarning[] {
    if (rollouts.length === 0) return [];
    this.iterations.push({ iteration, rollouts: [...rollouts] });
    const raised: MonitorWarning[] = [];
    const { window } = this.options;
    const raise = (kind: MonitorWarningKind, holds: boolean, message: () => string) => {
      const last = this.lastRaised.get(kind);
      const index = this.iterations.length - 1;
      if (!holds || (last !== undefined && index - last < window)) return;
      const warning = { kind, iteration, message: message() };
      raised.push(warning);
      this.warnings.push(warning);
      this.lastRaised.set(kind, index);
    };
    const all = (batches: typeof this.iterations, read: (rollout: RolloutObservation) => number) => batches.flatMap(({ rollouts: batch }) => batch.map(read));
    const recent = this.iterations.slice(-window);
    if (this.iterations.length >= 2 * window) {
      const previous = this.iterations.slice(-2 * window, -window);
      const rewardBefore = all(previous, (rollout) => rollout.prmReward);
      const rewardNow = all(recent, (rollout) => rollout.prmReward);
      const accuracyBefore = all(previous, (rollout) => (rollout.correct ? 1 : 0));
      const accuracyNow = all(recent, (rollout) => (rollout.correct ? 1 : 0));
      const rewardT = welchT(rewardBefore, rewardNow);
      const accuracyT = welchT(accuracyBefore, accuracyNow);
      raise(
        'reward-accuracy-divergence',
        rewardT >= this.options.rewardT && accuracyT < this.options.accuracyT,
        () =>
          `PRM reward is climbing (mean ${mean(rewardBefore).toFixed(3)} -> ${mean(rewardNow).toFixed(3)}, t = ${rewardT.toFixed(1)}) while accuracy is flat (${mean(accuracyBefore).toFixed(3)} -> ${mean(accuracyNow).toFixed(3)}, t = ${accuracyT.toFixed(1)}) over the last ${2 * window} iterations: the policy may be exploiting the PRM`,
      );
    }
    if (this.iterations.length >= 2 * window) {
      const baseline = this.iterations.slice(0, window).flatMap(({ rollouts: batch }) => batch.map((rollout) => rollout.steps));
      const latest = recent.flatMap(({ rollouts: batch }) => batch.map((rollout) => rollout.steps));
      const before = mean(baseline);
      const now = mean(latest);
      const ratio = before === 0 ? Number.POSITIVE_INFINITY : now / before;
      const t = welchT(baseline, latest);
      raise(
        'steps-drift',
        (ratio >= this.options.stepsRatio || ratio <= 1 / this.options.stepsRatio) && Math.abs(t) >= this.options.stepsT,
        () =>
          `steps per solution drifted from ${before.toFixed(2)} to ${now.toFixed(2)} (×${ratio.toFixed(2)}): the policy's steps may no longer be what the PRM scores (a segmentation mismatch); check the delimiter and the per-step reward`,
      );
    }
    return raised;
  }

  /** Per iteration: rollouts, mean PRM reward, accuracy and mean steps per solution. */
  summary(): IterationSummary[] {
    return this.iterations.map(({ iteration, rollouts }) => ({
      iteration,
      rollouts: rollouts.length,
      meanReward: mean(rollouts.map((rollout) => rollout.prmReward)),
      accuracy: mean(rollouts.map((rollout) => (rollout.correct ? 1 : 0))),
      meanSteps: mean(rollouts.map((rollout) => rollout.steps)),
    }));
  }
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}
