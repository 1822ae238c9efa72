import { type InferenceSession, Tensor } from 'onnxruntime-node';
import type { DecoderConfig } from '@reward-lens/spec';

/** One intra-op thread: the test machines are shared. */
export const testSessionOptions: InferenceSession.SessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential' };

export interface GraphRow {
  ids: number[];
  /** Padding columns before the real tokens (left padding). */
  leftPadding?: number;
}

/**
 * Runs a graph on rows of ids, padded to the longest (left padding when a row asks for it, else
 * right), with position ids counting real tokens, plus a past of `pastLength` given tensors.
 */
export async function runGraph(
  session: InferenceSession,
  config: DecoderConfig,
  rows: GraphRow[],
  past?: { length: number; tensors: Record<string, Float32Array> },
  extraFeeds: Record<string, Tensor> = {},
  fetches?: string[],
): Promise<{ outputs: InferenceSession.ReturnType; sequenceLength: number; cell: (row: number, token: number) => number }> {
  const pastLength = past?.length ?? 0;
  const sequenceLength = Math.max(...rows.map((row) => row.ids.length + (row.leftPadding ?? 0)));
  const total = pastLength + sequenceLength;
  const ids = new BigInt64Array(rows.length * sequenceLength);
  const mask = new BigInt64Array(rows.length * total);
  const positions = new BigInt64Array(rows.length * sequenceLength);
  rows.forEach((row, index) => {
    mask.fill(1n, index * total, index * total + pastLength);
    row.ids.forEach((id, token) => {
      const column = (row.leftPadding ?? 0) + token;
      ids[index * sequenceLength + column] = BigInt(id);
      positions[index * sequenceLength + column] = BigInt(pastLength + token);
      mask[index * total + pastLength + column] = 1n;
    });
  });
  const feeds: Record<string, Tensor> = {
    input_ids: new Tensor('int64', ids, [rows.length, sequenceLength]),
    attention_mask: new Tensor('int64', mask, [rows.length, total]),
    position_ids: new Tensor('int64', positions, [rows.length, sequenceLength]),
  };
  if (session.inputNames.includes('past_key_values.0.key')) {
    for (let layer = 0; layer < config.numLayers; layer++) {
      for (const part of ['key', 'value']) {
        const name = `past_key_values.${layer}.${part}`;
        feeds[name] = new Tensor('float32', past?.tensors[name] ?? new Float32Array(0), [rows.length, config.numKvHeads, pastLength, config.headDim]);
      }
    }
  }
  // A graph with read positions reads column 0 of each row unless told otherwise.
  for (const name of session.inputNames.filter((input) => input.startsWith('read_positions.'))) {
    feeds[name] = new Tensor('int64', new BigInt64Array(rows.length), [rows.length, 1]);
  }
  Object.assign(feeds, extraFeeds);
  const outputs = fetches ? await session.run(feeds, fetches) : await session.run(feeds);
  const cell = (row: number, token: number) => row * sequenceLength + (rows[row]!.leftPadding ?? 0) + token;
  return { outputs, sequenceLength, cell };
}
