/**
 * How a number may be compared. `INVARIANT`: a raw reward-head value, meaningful only up to the
 * model's gauge (an additive shift a reward model's training does not fix): compare steps and
 * solutions within one model, not across models. `PROBABILITY`: a softmax or sigmoid output in [0, 1].
 */
export type Gauge = 'INVARIANT' | 'PROBABILITY';

/**
 * `EXPLORATORY` until a calibration against labelled steps is attached (`prm.withCalibration`);
 * then `CALIBRATED`, and the notes name the calibration set and its domain.
 */
export type Trust = 'EXPLORATORY' | 'CALIBRATED';

/** A value with the labels every reward-lens number carries. */
export interface Evidence<Value> {
  value: Value;
  gauge: Gauge;
  trust: Trust;
  /** Which backend ran, fallbacks taken, truncation applied, step-detection notes. Never empty of a fallback taken. */
  notes: string[];
}

export function createEvidence<Value>(value: Value, options: { gauge: Gauge; trust?: Trust; notes?: readonly string[] }): Evidence<Value> {
  return { value, gauge: options.gauge, trust: options.trust ?? 'EXPLORATORY', notes: [...(options.notes ?? [])] };
}
