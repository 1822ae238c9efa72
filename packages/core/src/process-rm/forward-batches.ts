import type { BackendV1, ReadRequestV1 } from '@reward-lens/spec';
import { padRows } from '@reward-lens/spec/internal';

export interface SequenceReads {
  inputIds: Int32Array;
  /** Positions to read, indices into `inputIds`. */
  positions: readonly number[];
  /** With several reads: each read's own positions (else every read takes `positions`). */
  readPositions?: readonly (readonly number[])[];
}

export interface ForwardBatchOptions {
  batchSize: number;
  /** Checked before each pass: an aborted signal rejects with its reason, and no further pass starts. */
  signal?: AbortSignal | undefined;
  padding: 'left' | 'right';
  padTokenId: number;
  /** Builds the read for one batch from its rows' positions (a head read, or a hidden-state read). */
  read: (positions: number[][]) => ReadRequestV1;
}

/** `ForwardBatchOptions` with several reads per pass (hidden states of several layers, say). */
export interface ForwardReadsOptions extends Omit<ForwardBatchOptions, 'read'> {
  /** `positions`: the rows' positions; `perRead[r]`: read r's (from `SequenceReads.readPositions`, else `positions`). */
  reads: (positions: number[][], perRead: number[][][]) => ReadRequestV1[];
}

/**
 * Runs sequences through the backend in padded batches of `batchSize`, one forward pass per
 * batch, and returns per sequence the read values (`positions.length * width`) and the width.
 */
export async function forwardInBatches(
  backend: BackendV1,
  sequences: readonly SequenceReads[],
  options: ForwardBatchOptions,
): Promise<{ values: Float32Array[]; width: number }> {
  const { read, ...rest } = options;
  const [only] = await forwardReadsInBatches(backend, sequences, { ...rest, reads: (positions) => [read(positions)] });
  return only ?? { values: [], width: 0 };
}

/**
 * `forwardInBatches` with several reads in each pass: per read, per sequence its values. With
 * `onRow`, each batch's rows are mapped (a log-softmax reduced to one number per token, say) while
 * the next batch's pass runs: the calling thread's work overlaps the backend's.
 */
export async function forwardReadsInBatches(
  backend: BackendV1,
  sequences: readonly SequenceReads[],
  options: ForwardReadsOptions & { onRow?: (read: number, sequence: number, values: Float32Array, width: number) => Float32Array },
): Promise<{ values: Float32Array[]; width: number }[]> {
  let results: { values: Float32Array[]; width: number }[] | undefined;
  const pass = (start: number) => {
    options.signal?.throwIfAborted();
    const batch = sequences.slice(start, start + options.batchSize);
    const padded = padRows(
      batch.map((sequence) => sequence.inputIds),
      { padTokenId: options.padTokenId, side: options.padding },
    );
    const { sequenceLength, inputIds, attentionMask } = padded;
    const positions: number[][] = [];
    const perRead: number[][][] = [];
    batch.forEach((sequence, row) => {
      const shift = padded.shifts[row]!;
      positions.push(sequence.positions.map((position) => position + shift));
      (sequence.readPositions ?? []).forEach((own, read) => {
        perRead[read] ??= [];
        perRead[read][row] = own.map((position) => position + shift);
      });
    });
    return backend.doForward({ batchSize: batch.length, sequenceLength, inputIds, attentionMask, reads: options.reads(positions, perRead) });
  };
  options.signal?.throwIfAborted();
  let pending = sequences.length > 0 ? pass(0) : undefined;
  try {
    for (let start = 0; start < sequences.length; start += options.batchSize) {
      const result = await pending!;
      // The next pass starts before this one's rows are mapped.
      pending = start + options.batchSize < sequences.length ? pass(start + options.batchSize) : undefined;
      results ??= result.reads.map(() => ({ values: [], width: 0 }));
      result.reads.forEach((read, index) => {
        results![index]!.width = read.width;
        read.values.forEach((values, row) => {
          results![index]!.values.push(options.onRow ? options.onRow(index, start + row, values, read.width) : values);
        });
      });
    }
  } catch (error) {
    // A pass started ahead of a failure is waited for, so nothing runs on after the call fails.
    await pending?.catch(() => undefined);
    throw error;
  }
  return results ?? options.reads([], []).map(() => ({ values: [], width: 0 }));
}
