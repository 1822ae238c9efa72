export interface LearningRateSchedule {
  peak: number;
  /** Steps of linear warm-up from peak/warmup to peak. */
  warmupSteps: number;
  /** Steps in all: the cosine decays from peak to `minimum` over the steps after warm-up. */
  totalSteps: number;
  minimum: number;
}

/** The learning rate of 0-based step `step`: linear warm-up, then cosine decay. */
export function learningRateAt(schedule: LearningRateSchedule, step: number): number {
  const { peak, warmupSteps, totalSteps, minimum } = schedule;
  if (step < warmupSteps) return (peak * (step + 1)) / warmupSteps;
  const decaySteps = Math.max(1, totalSteps - warmupSteps);
  const progress = Math.min(1, (step - warmupSteps) / decaySteps);
  return minimum + (peak - minimum) * 0.5 * (1 + Math.cos(Math.PI * progress));
}
