import type { ProcessRM } from '@reward-lens/core';
import type { RecordSource } from './record-source.js';
import type { LabelPolicy } from './step-record.js';
import { toTrainingExample, type TrainingExample } from './training-example.js';

export interface TrainingBatch {
  examples: TrainingExample[];
  /** Real tokens in the batch. */
  tokens: number;
  /** The data position right after this batch: where a run resumed after it starts reading. */
  cursorAfter: number;
  /** Records passed over while filling it, with why (too long, unlabelled). */
  skipped: string[];
}

/**
 * Batches packed by token count: records are taken in training order while their tokens fit
 * in `batchTokens` (a record longer than that forms a batch of its own). Padding costs nothing
 * on the tiny backend (it packs real tokens), so the budget counts real tokens.
 */
export class BatchStream {
  readonly #iterator: Iterator<import('./step-record.js').StepRecord>;
  #position: number;
  #pending: { example: TrainingExample; position: number } | undefined;

  constructor(
    source: RecordSource,
    cursor: number,
    readonly prm: ProcessRM,
    readonly batchTokens: number,
    readonly policy: LabelPolicy,
  ) {
    this.#iterator = source.from(cursor);
    this.#position = cursor;
  }

  /** The next batch, or undefined when a finite stream ran out. */
  next(): TrainingBatch | undefined {
    const examples: TrainingExample[] = [];
    const skipped: string[] = [];
    let tokens = 0;
    for (;;) {
      let candidate = this.#pending;
      this.#pending = undefined;
      if (!candidate) {
        const result = this.#iterator.next();
        if (result.done) break;
        const position = this.#position++;
        const example = toTrainingExample(this.prm, result.value, this.policy);
        if ('skipped' in example) {
          skipped.push(`record ${position}${result.value.id ? ` (${result.value.id})` : ''}: ${example.skipped}`);
          continue;
        }
        candidate = { example, position };
      }
      const length = candidate.example.inputIds.length;
      if (examples.length > 0 && tokens + length > this.batchTokens) {
        this.#pending = candidate;
        break;
      }
      examples.push(candidate.example);
      tokens += length;
      if (tokens >= this.batchTokens) break;
    }
    if (examples.length === 0) return undefined;
    return { examples, tokens, cursorAfter: this.#pending ? this.#pending.position : this.#position, skipped };
  }
}
