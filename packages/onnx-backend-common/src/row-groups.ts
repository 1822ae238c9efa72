import type { ForwardRequestV1, ForwardResultV1, ReadRequestV1 } from '@reward-lens/spec';

/**
 * What one onnxruntime run of a batch is estimated to hold at its peak, per row: the attention
 * scores of a layer (`heads × tokens × (past + tokens)` floats, about three copies alive: the
 * scores, their masked sum and the softmax) and the per-token outputs fetched. A graph's attention
 * is materialized, so a batch of long rows costs the square of its padded length per row: eight
 * ProcessBench solutions of 2,000 tokens took gigabytes in one run, and the CPU arena kept the
 * largest run's memory for the rest of a stream.
 */
export interface RunCost {
  /** Attention heads of the model (the query heads). */
  heads: number;
  /** Floats fetched per token: the widths of the per-token outputs a request reads. */
  outputWidthPerToken: number;
}

/** The default most bytes one run may be estimated to hold before a batch is run in row groups. */
export const DEFAULT_MAX_RUN_BYTES = 256 * 2 ** 20;

interface RowSpan {
  row: number;
  /** First and last column holding a real token. */
  first: number;
  last: number;
  past: number;
}

function rowSpans(request: ForwardRequestV1): RowSpan[] {
  const { batchSize, sequenceLength, attentionMask } = request;
  return Array.from({ length: batchSize }, (_, row) => {
    let first = -1;
    let last = -1;
    for (let column = 0; column < sequenceLength; column++) {
      if (attentionMask[row * sequenceLength + column] === 0) continue;
      if (first < 0) first = column;
      last = column;
    }
    // A row with no new tokens (a cached row read elsewhere) still takes one column.
    if (first < 0) [first, last] = [0, 0];
    return { row, first, last, past: request.past?.[row]?.length ?? 0 };
  });
}

function groupBytes(spans: readonly RowSpan[], cost: RunCost): number {
  const first = Math.min(...spans.map((span) => span.first));
  const length = Math.max(...spans.map((span) => span.last)) - first + 1;
  const total = length + Math.max(...spans.map((span) => span.past));
  return spans.length * length * (3 * cost.heads * total + cost.outputWidthPerToken) * 4;
}

/**
 * The rows of a request in groups whose runs fit `maxBytes` (see `RunCost`), shortest rows
 * together; one group of every row when the whole batch fits. A single row that alone exceeds
 * the limit is a group of its own: its cost is the model's, bounded by its positions.
 */
export function planRowGroups(request: ForwardRequestV1, cost: RunCost, maxBytes: number): number[][] {
  const spans = rowSpans(request);
  if (groupBytes(spans, cost) <= maxBytes) return [spans.map((span) => span.row)];
  const byLength = [...spans].sort((a, b) => a.last - a.first + a.past - (b.last - b.first + b.past) || a.row - b.row);
  const groups: RowSpan[][] = [];
  for (const span of byLength) {
    const current = groups[groups.length - 1];
    if (current && groupBytes([...current, span], cost) <= maxBytes) current.push(span);
    else groups.push([span]);
  }
  return groups.map((group) => group.map((span) => span.row));
}

/** The request restricted to some rows, its columns cropped to where those rows hold real tokens. */
export function rowGroupRequest(request: ForwardRequestV1, rows: readonly number[]): ForwardRequestV1 {
  const { sequenceLength } = request;
  let first = sequenceLength;
  let last = -1;
  for (const row of rows) {
    for (let column = 0; column < sequenceLength; column++) {
      if (request.attentionMask[row * sequenceLength + column] === 0) continue;
      first = Math.min(first, column);
      last = Math.max(last, column);
    }
  }
  if (last < 0) [first, last] = [0, 0];
  const length = last - first + 1;
  const inputIds = new Int32Array(rows.length * length);
  const attentionMask = new Uint8Array(rows.length * length);
  rows.forEach((row, index) => {
    inputIds.set(request.inputIds.subarray(row * sequenceLength + first, row * sequenceLength + last + 1), index * length);
    attentionMask.set(request.attentionMask.subarray(row * sequenceLength + first, row * sequenceLength + last + 1), index * length);
  });
  const reads = request.reads.map(
    (read): ReadRequestV1 => ({ ...read, positions: rows.map((row) => read.positions[row]!.map((position) => position - first)) }),
  );
  return {
    batchSize: rows.length,
    sequenceLength: length,
    inputIds,
    attentionMask,
    reads,
    ...(request.past ? { past: rows.map((row) => request.past![row]!) } : {}),
    ...(request.returnCache ? { returnCache: true } : {}),
    ...(request.cacheLengths ? { cacheLengths: rows.map((row) => request.cacheLengths![row]!) } : {}),
  };
}

/** The groups' results put back in the request's row order. */
export function mergeRowGroups(batchSize: number, groups: readonly (readonly number[])[], results: readonly ForwardResultV1[]): ForwardResultV1 {
  const reads = results[0]!.reads.map((read, index) => {
    const values: Float32Array[] = new Array(batchSize);
    groups.forEach((rows, group) => rows.forEach((row, slot) => (values[row] = results[group]!.reads[index]!.values[slot]!)));
    return { width: read.width, values };
  });
  if (results[0]!.caches === undefined) return { reads };
  const caches = new Array(batchSize);
  groups.forEach((rows, group) => rows.forEach((row, slot) => (caches[row] = results[group]!.caches![slot]!)));
  return { reads, caches };
}
