/** Rows of token ids as one padded batch: what a `ForwardRequestV1` takes, and where each row starts. */
export interface PaddedRows {
  batchSize: number;
  /** The longest row's length. */
  sequenceLength: number;
  /** `[batchSize, sequenceLength]` row-major, padding filled with `padTokenId`. */
  inputIds: Int32Array;
  /** 1 on each row's real tokens, 0 on its padding. */
  attentionMask: Uint8Array;
  /** Per row, the column of its first token: 0 with right padding, the padding's width with left padding. */
  shifts: number[];
}

/**
 * Pads rows of uneven length into one batch, on the right (default) or the left, with
 * `padTokenId` (default 0) under a zero attention mask. Positions read in a row move by its
 * `shifts[row]`.
 */
export function padRows(rows: readonly ArrayLike<number>[], options: { padTokenId?: number; side?: 'left' | 'right' } = {}): PaddedRows {
  const sequenceLength = rows.reduce((longest, row) => Math.max(longest, row.length), 0);
  const inputIds = new Int32Array(rows.length * sequenceLength).fill(options.padTokenId ?? 0);
  const attentionMask = new Uint8Array(rows.length * sequenceLength);
  const shifts = rows.map((row, index) => {
    const shift = options.side === 'left' ? sequenceLength - row.length : 0;
    const start = index * sequenceLength + shift;
    inputIds.set(row, start);
    attentionMask.fill(1, start, start + row.length);
    return shift;
  });
  return { batchSize: rows.length, sequenceLength, inputIds, attentionMask, shifts };
}
