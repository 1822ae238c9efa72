import { InvalidInputError } from '@reward-lens/spec';
import { processWide } from '@reward-lens/spec/internal';

import { builtInAggregators, type Aggregator } from './aggregators.js';

// Process-wide, like the backend registry: every copy of core sees the same custom aggregators.
const customAggregators = processWide('aggregators.v1', () => new Map<string, Aggregator>());

/** Adds a named aggregator (built-in names cannot be replaced). Returns a function that removes it. */
export function registerAggregator(name: string, aggregator: Aggregator): () => void {
  if (name in builtInAggregators) throw new InvalidInputError(`"${name}" is a built-in aggregator and cannot be replaced`);
  customAggregators.set(name, aggregator);
  return () => {
    if (customAggregators.get(name) === aggregator) customAggregators.delete(name);
  };
}

export function aggregatorNames(): string[] {
  return [...Object.keys(builtInAggregators), ...customAggregators.keys()];
}

export function getAggregator(name: string): Aggregator {
  const aggregator = (builtInAggregators as Record<string, Aggregator>)[name] ?? customAggregators.get(name);
  if (!aggregator) throw new InvalidInputError(`unknown aggregator "${name}" (known: ${aggregatorNames().join(', ')})`);
  return aggregator;
}

/**
 * One solution score from its step scores, by name or function.
 * @example aggregate([0.95, 0.9, 0.3, 0.85], 'min') // 0.3
 */
export function aggregate(stepScores: ArrayLike<number>, how: string | Aggregator): number {
  if (stepScores.length === 0) throw new InvalidInputError('cannot aggregate an empty list of step scores');
  for (let index = 0; index < stepScores.length; index++) {
    if (!Number.isFinite(stepScores[index]!)) throw new InvalidInputError(`step score ${index} is not a finite number (${stepScores[index]})`);
  }
  return (typeof how === 'function' ? how : getAggregator(how))(stepScores);
}

/** {@link aggregateScored}'s result. */
export interface ScoredAggregate {
  /** The aggregate over the steps with a finite score; NaN when no step has one. */
  value: number;
  /** How many steps it is over. */
  scoredSteps: number;
  /** 1-based numbers of the steps left out (no score: left truncation cut their reads off). */
  unscoredSteps: number[];
}

/**
 * The aggregate over the steps that have a score. `aggregate` refuses a NaN, rightly for a whole
 * curve; with left truncation the first steps of a long solution have none, and a caller that
 * asked for it gets the aggregate of what was scored, with the steps it leaves out.
 * @example aggregateScored([Number.NaN, 0.9, 0.3], 'min') // { value: 0.3, scoredSteps: 2, unscoredSteps: [1] }
 */
export function aggregateScored(stepScores: ArrayLike<number>, how: string | Aggregator): ScoredAggregate {
  const scored: number[] = [];
  const unscoredSteps: number[] = [];
  for (let index = 0; index < stepScores.length; index++) {
    if (Number.isFinite(stepScores[index]!)) scored.push(stepScores[index]!);
    else unscoredSteps.push(index + 1);
  }
  return { value: scored.length === 0 ? Number.NaN : aggregate(scored, how), scoredSteps: scored.length, unscoredSteps };
}
