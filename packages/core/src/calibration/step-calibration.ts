import { validateTokenDomainSpec, type TokenDomainSpec } from '../domain/token-domain.js';
import { InvalidInputError } from '@reward-lens/spec';

/**
 * How a raw step score becomes a probability that the step is correct.
 * `platt`: `1 / (1 + exp(-(slope * score + intercept)))`.
 * `isotonic`: the non-decreasing piecewise-linear function through `(x[i], y[i])` (as fitted by
 * pool-adjacent-violators), constant beyond the first and last points.
 */
export type CalibrationMap = { method: 'platt'; slope: number; intercept: number } | { method: 'isotonic'; x: number[]; y: number[] };

/** The labelled set a calibration was fitted on. The SDK cannot tell whether a text comes from its domain: notes name it. */
export interface CalibrationSet {
  /** E.g. `organism held-out split (seed 1)`. */
  name: string;
  /** What kind of text it holds, e.g. `organism arithmetic word problems`. */
  domain: string;
  /** Labelled steps the map was fitted on. */
  labelledSteps: number;
  /** Solutions those steps came from. */
  items: number;
}

/**
 * A fitted step calibration as plain data (JSON-serialisable), so a model can ship one beside its
 * weights. Attach it with `prm.withCalibration(calibration)`; fit one with `@reward-lens/eval`.
 */
export interface StepCalibration {
  format: 'reward-lens.step-calibration';
  version: 1;
  map: CalibrationMap;
  set: CalibrationSet;
  /** Optional fit diagnostics (expected calibration error before and after, with the binning used). */
  diagnostics?: { eceBefore: number; eceAfter: number; bins: number; binning: string };
  /**
   * Optional decision threshold on the calibrated scale, chosen on a labelled split: the first step
   * scoring below it is the step predicted wrong (ProcessBench's reading). The CLI's table marks it.
   */
  threshold?: CalibrationThreshold;
  /**
   * Optional vocabulary check: the probabilities hold for text of the calibration set's kind; a
   * record with more tokens outside the training text's ids is noted and not `CALIBRATED`.
   */
  domainCheck?: TokenDomainSpec;
}

/** A decision threshold for step scores and where it was chosen. */
export interface CalibrationThreshold {
  /** In [0, 1], on the calibrated scale. */
  value: number;
  /** The split it was chosen on, e.g. `organism calibration split (seed 1001, 400 items)`. */
  chosenOn: string;
}

function validateThreshold(value: unknown): CalibrationThreshold {
  const threshold = (value ?? {}) as Record<string, unknown>;
  const number = finiteNumber(threshold.value, 'threshold.value');
  if (number < 0 || number > 1) throw new InvalidInputError(`threshold.value must be in [0, 1], got ${number}`, { location: 'calibration' });
  if (typeof threshold.chosenOn !== 'string' || threshold.chosenOn === '')
    throw new InvalidInputError('threshold.chosenOn must be a non-empty string', { location: 'calibration' });
  return { value: number, chosenOn: threshold.chosenOn };
}

/** The index of the first step scoring below `threshold` (a NaN step is skipped), or -1: ProcessBench's predicted first error. */
export function firstStepBelow(curve: ArrayLike<number>, threshold: number): number {
  for (let index = 0; index < curve.length; index++) if (curve[index]! < threshold) return index;
  return -1;
}

function finiteNumber(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InvalidInputError(`${where} must be a finite number`, { location: 'calibration' });
  return value;
}

function numberList(value: unknown, where: string): number[] {
  if (!Array.isArray(value)) throw new InvalidInputError(`${where} must be an array of numbers`, { location: 'calibration' });
  return value.map((entry, index) => finiteNumber(entry, `${where}[${index}]`));
}

function validateMap(value: unknown): CalibrationMap {
  const map = (value ?? {}) as Record<string, unknown>;
  if (map.method === 'platt') return { method: 'platt', slope: finiteNumber(map.slope, 'map.slope'), intercept: finiteNumber(map.intercept, 'map.intercept') };
  if (map.method === 'isotonic') {
    const x = numberList(map.x, 'map.x');
    const y = numberList(map.y, 'map.y');
    if (x.length === 0 || x.length !== y.length)
      throw new InvalidInputError('map.x and map.y must be non-empty and of equal length', { location: 'calibration' });
    for (let index = 1; index < x.length; index++) {
      if (x[index]! < x[index - 1]! || y[index]! < y[index - 1]!)
        throw new InvalidInputError('an isotonic map must be non-decreasing in x and y', { location: 'calibration' });
    }
    if (y[0]! < 0 || y[y.length - 1]! > 1) throw new InvalidInputError('an isotonic map must take values in [0, 1]', { location: 'calibration' });
    return { method: 'isotonic', x, y };
  }
  throw new InvalidInputError(`map.method must be "platt" or "isotonic", got ${JSON.stringify(map.method)}`, { location: 'calibration' });
}

/** Checks a parsed JSON value is a step calibration this version can apply; throws `InvalidInputError` naming the field. */
export function validateStepCalibration(value: unknown): StepCalibration {
  if (typeof value !== 'object' || value === null) throw new InvalidInputError('a calibration must be an object', { location: 'calibration' });
  const record = value as Record<string, unknown>;
  if (record.format !== 'reward-lens.step-calibration') {
    throw new InvalidInputError(`format must be "reward-lens.step-calibration", got ${JSON.stringify(record.format)}`, { location: 'calibration' });
  }
  if (record.version !== 1)
    throw new InvalidInputError(`version ${JSON.stringify(record.version)} is not supported (this version reads 1)`, { location: 'calibration' });
  const set = (record.set ?? {}) as Record<string, unknown>;
  if (typeof set.name !== 'string' || set.name === '') throw new InvalidInputError('set.name must be a non-empty string', { location: 'calibration' });
  if (typeof set.domain !== 'string' || set.domain === '') throw new InvalidInputError('set.domain must be a non-empty string', { location: 'calibration' });
  const labelledSteps = finiteNumber(set.labelledSteps, 'set.labelledSteps');
  const items = finiteNumber(set.items, 'set.items');
  const calibration: StepCalibration = {
    format: 'reward-lens.step-calibration',
    version: 1,
    map: validateMap(record.map),
    set: { name: set.name, domain: set.domain, labelledSteps, items },
  };
  if (record.diagnostics !== undefined) calibration.diagnostics = record.diagnostics as NonNullable<StepCalibration['diagnostics']>;
  if (record.threshold !== undefined) calibration.threshold = validateThreshold(record.threshold);
  if (record.domainCheck !== undefined) calibration.domainCheck = validateTokenDomainSpec(record.domainCheck);
  return calibration;
}

/** The calibrated probability of one raw score. NaN (an unscored step) stays NaN. */
export function applyStepCalibration(map: CalibrationMap, score: number): number {
  if (Number.isNaN(score)) return Number.NaN;
  if (map.method === 'platt') return 1 / (1 + Math.exp(-(map.slope * score + map.intercept)));
  const { x, y } = map;
  if (score <= x[0]!) return y[0]!;
  if (score >= x[x.length - 1]!) return y[y.length - 1]!;
  // Binary search for the segment x[low] <= score < x[high], then interpolate (as numpy.interp does).
  let low = 0;
  let high = x.length - 1;
  while (high - low > 1) {
    const middle = (low + high) >>> 1;
    if (x[middle]! <= score) low = middle;
    else high = middle;
  }
  const span = x[high]! - x[low]!;
  return span === 0 ? y[high]! : y[low]! + ((score - x[low]!) / span) * (y[high]! - y[low]!);
}

/** The note a calibrated result carries: which set, how large, and the domain it holds. */
export function calibrationNote(calibration: StepCalibration): string {
  const { set, map } = calibration;
  return `calibrated (${map.method}) on "${set.name}": ${set.labelledSteps} labelled steps from ${set.items} solutions, domain: ${set.domain}; probabilities hold for text from that domain${
    calibration.domainCheck ? ' (a record outside its training vocabulary is noted and not CALIBRATED)' : ', which the SDK cannot check'
  }`;
}
