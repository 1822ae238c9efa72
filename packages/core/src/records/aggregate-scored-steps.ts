import { aggregateScored } from '../aggregators/index.js';

/** The aggregate of a record's step scores; `scoredSteps` appears when some steps had no score. */
export interface RecordAggregate {
  name: string;
  /** NaN (null in JSON) when no step was scored. */
  value: number;
  /** How many steps the aggregate is over, when fewer than all (left truncation cut the others off). */
  scoredSteps?: number;
}

/** `[1, 2, 3, 5]` as `1–3, 5`. */
function stepList(numbers: readonly number[]): string {
  const ranges: string[] = [];
  for (let start = 0; start < numbers.length; ) {
    let end = start;
    while (end + 1 < numbers.length && numbers[end + 1] === numbers[end]! + 1) end++;
    ranges.push(end > start ? `${numbers[start]}–${numbers[end]}` : String(numbers[start]));
    start = end + 1;
  }
  return ranges.join(', ');
}

/**
 * Aggregates over the steps that have a score (`aggregateScored`: left truncation leaves the first
 * steps of a long solution without one), with one note naming the steps left out. Several names
 * share one note (they are over the same steps).
 *
 * @example
 * aggregateScoredSteps([NaN, 0.9, 0.2], 'min'); // { aggregates: [{ name: 'min', value: 0.2, scoredSteps: 2 }], notes: ['min is over the 2 scored steps of 3; step 1 left out (no score)'] }
 */
export function aggregateScoredSteps(curve: ArrayLike<number>, names: string | readonly string[]): { aggregates: RecordAggregate[]; notes: string[] } {
  const list = typeof names === 'string' ? [names] : names;
  const results = list.map((name) => ({ name, ...aggregateScored(curve, name) }));
  const { scoredSteps, unscoredSteps } = results[0] ?? { scoredSteps: curve.length, unscoredSteps: [] };
  const subject = list.length === 1 ? list[0]! : `the aggregates (${list.join(', ')})`;
  if (curve.length > 0 && unscoredSteps.length === 0) return { aggregates: results.map(({ name, value }) => ({ name, value })), notes: [] };
  const aggregates = results.map(({ name, value }) => ({ name, value, scoredSteps }));
  if (scoredSteps === 0) return { aggregates, notes: [`${subject} not computed: no step has a score`] };
  const stepWord = unscoredSteps.length === 1 ? 'step' : 'steps';
  const verb = list.length === 1 ? 'is' : 'are';
  return {
    aggregates,
    notes: [`${subject} ${verb} over the ${scoredSteps} scored steps of ${curve.length}; ${stepWord} ${stepList(unscoredSteps)} left out (no score)`],
  };
}
