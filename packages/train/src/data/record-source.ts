import { InvalidInputError } from '@reward-lens/core';
import { deriveSeed, TrainingRandom } from '../random.js';
import { checkStepRecord, type StepRecord } from './step-record.js';

/**
 * Training data as a resumable sequence: `from(cursor)` gives the records from position
 * `cursor` of the training order on, so a run restarted from a checkpoint reads exactly the
 * records the uninterrupted run would have read next.
 */
export interface RecordSource {
  /** What the data is, for the model card (files, counts, generator and seed). */
  readonly description: string;
  /** Records per epoch, when the source is finite. */
  readonly size: number | undefined;
  from(cursor: number): Iterator<StepRecord>;
  /** The generator state behind position `cursor` (the shuffle of its epoch), for the checkpoint. */
  randomStateAt(cursor: number): { epoch: number; shuffleState: number } | undefined;
}

/**
 * A finite set of records, reshuffled at every epoch by a generator seeded from `seed` and the
 * epoch (or kept in order with `shuffle: false`).
 */
export function recordsSource(records: readonly StepRecord[], options: { seed: number; shuffle?: boolean; description?: string }): RecordSource {
  if (records.length === 0) throw new InvalidInputError('the training data holds no records');
  records.forEach((record, index) => checkStepRecord(record, options.description ? `${options.description} record ${index}` : `record ${index}`));
  const shuffle = options.shuffle ?? true;
  const shuffleState = (epoch: number) => new TrainingRandom(deriveSeed(options.seed, 1000 + epoch)).state;
  const orders = new Map<number, Int32Array>();
  const orderOf = (epoch: number) => {
    let order = orders.get(epoch);
    if (!order) {
      order = shuffle ? TrainingRandom.fromState(shuffleState(epoch)).permutation(records.length) : Int32Array.from(records, (_, index) => index);
      orders.clear();
      orders.set(epoch, order);
    }
    return order;
  };
  return {
    description: options.description ?? `${records.length} in-memory records`,
    size: records.length,
    from(cursor) {
      let position = cursor;
      return {
        next: () => {
          const epoch = Math.floor(position / records.length);
          const record = records[orderOf(epoch)[position % records.length]!]!;
          position++;
          return { value: record, done: false };
        },
      };
    },
    randomStateAt: (cursor) => {
      const epoch = Math.floor(cursor / records.length);
      return { epoch, shuffleState: shuffleState(epoch) };
    },
  };
}

/**
 * Records from a generator, read in order (an organism producing problems, say): `open()` must
 * give the same sequence every time it is called, which resuming relies on (the records before
 * the cursor are generated again and skipped, not trained on).
 */
export function streamSource(open: () => Iterable<StepRecord>, description: string): RecordSource {
  return {
    description,
    size: undefined,
    from(cursor) {
      const iterator = open()[Symbol.iterator]();
      let position = 0;
      return {
        next: () => {
          while (position < cursor) {
            if (iterator.next().done) throw new InvalidInputError(`the record stream ended after ${position} records, before the resume point ${cursor}`);
            position++;
          }
          const result = iterator.next();
          if (result.done) return { value: undefined, done: true };
          position++;
          return { value: checkStepRecord(result.value, `${description} record ${position - 1}`), done: false };
        },
      };
    },
    randomStateAt: () => undefined,
  };
}
