import type { ErrorKind } from './options.js';
import type { Organism, OrganismItem } from './organism.js';
import { pairRecords, toProcessBench, toTrl, type TrlLabelRule } from './formats.js';

/** The record formats an organism item is written in. */
export const organismFormats = ['processbench', 'trl', 'organism'] as const;
export type OrganismFormat = (typeof organismFormats)[number];

export interface OrganismRecordsOptions {
  /** Index of the first item (or pair); disjoint ranges of one seed are disjoint samples. */
  from?: number;
  count: number;
  /** processbench (default), trl, or organism (every field of the ground truth). */
  format?: OrganismFormat;
  /** TRL's labels (with `format: 'trl'`): prefix (default) or step. */
  labels?: TrlLabelRule;
  /** Matched pairs instead of items: two records per pair, the clean solution and the flawed one. */
  pairs?: boolean;
}

/** One record to write, with its solution's error kind (null for a correct one), for a tally. */
export interface OrganismRecord {
  record: object;
  errorKind: ErrorKind | null;
}

/** An item as a record of `format`. */
export function organismItemRecord(item: OrganismItem, format: OrganismFormat = 'processbench', labels: TrlLabelRule = 'prefix'): object {
  if (format === 'processbench') return toProcessBench(item);
  if (format === 'trl') return toTrl(item, labels);
  return item;
}

/**
 * The records of items (or matched pairs) `from` to `from + count - 1` of an organism, drawn one
 * index at a time as they are read, so that a million records never sit in memory at once.
 *
 * @example
 * for (const { record } of organismRecords(createOrganism({ seed: 1 }), { count: 100, format: 'trl' })) write(`${JSON.stringify(record)}\n`);
 */
export function* organismRecords(organism: Organism, options: OrganismRecordsOptions): Generator<OrganismRecord> {
  const { from = 0, count, format = 'processbench', labels = 'prefix' } = options;
  const write = (item: OrganismItem) => organismItemRecord(item, format, labels);
  for (let index = from; index < from + count; index++) {
    if (options.pairs === true) {
      const pair = organism.pair(index);
      const [clean, flawed] = pairRecords(pair, write);
      yield { record: clean!, errorKind: null };
      yield { record: flawed!, errorKind: pair.errorKind };
      continue;
    }
    const item = organism.item(index);
    yield { record: write(item), errorKind: item.errorKind };
  }
}
