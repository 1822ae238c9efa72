import { forwardInBatches, type ProcessRM, type ReadingRecipe } from '@reward-lens/core';
import { HttpError } from '../http/http-error.js';

/** One prompt of a pooling request, tokenized: its ids and the positions read (its step tags). */
export interface PoolingJob {
  ids: Int32Array;
  positions: number[];
}

/**
 * A recipe's row at a read position, as vLLM's pooler gives it: the softmax over the read
 * columns (classes, or `returned_token_ids`), the sigmoid of a single output, or the raw outputs
 * when the request turns the activation off. The softmax is computed as core's scores are (float64,
 * max subtracted, classes summed in order), so `row[positiveIndex]` is the local score exactly.
 */
export function activateRow(values: Float32Array, recipe: ReadingRecipe, useActivation: boolean): number[] {
  const raw = Array.from(values);
  if (!useActivation || recipe.activation === 'identity') return raw;
  if (recipe.activation === 'sigmoid') return raw.map((value) => 1 / (1 + Math.exp(-value)));
  let max = -Infinity;
  for (const value of raw) max = Math.max(max, value);
  let total = 0;
  for (const value of raw) total += Math.exp(value - max);
  return raw.map((value) => Math.exp(value - max) / total);
}

/**
 * vLLM's STEP pooling on a local PRM: a prompt is tokenized with the model's tokenizer (BOS added
 * with `add_special_tokens` when the recipe adds one), the recipe's head is read at every step-tag
 * token (every token when the recipe reads at no tag), and each read becomes one row.
 */
export class StepPooling {
  /** The id whose positions are read (vLLM's `step_tag_id`); undefined: every position. */
  readonly stepTagId: number | undefined;
  private readonly columns: number[] | undefined;

  constructor(private readonly prm: ProcessRM) {
    const { recipe, tokenizer } = prm;
    const readAt = recipe.readAt;
    this.stepTagId = readAt.at === 'suffix' && readAt.tokenOffset === 0 ? tokenizer.tokenToId(readAt.text) : undefined;
    this.columns = recipe.columns?.map((column) => (typeof column === 'number' ? column : tokenizer.tokenToId(column.token)!));
  }

  /** A prompt's token ids and read positions; a prompt longer than the model is vLLM's 400. */
  prepare(input: string | number[], options: { addSpecialTokens: boolean; truncatePromptTokens: number | undefined }): PoolingJob {
    const { tokenizer, recipe, backend } = this.prm;
    let ids: number[];
    if (typeof input === 'string') {
      const bos = options.addSpecialTokens && recipe.addBos && tokenizer.bosTokenId !== null ? [tokenizer.bosTokenId] : [];
      ids = [...bos, ...tokenizer.encode(input).ids];
    } else {
      const bad = input.findIndex((id) => !Number.isInteger(id) || id < 0 || id >= tokenizer.vocabSize);
      if (bad >= 0)
        throw new HttpError(400, 'BadRequestError', `token id ${input[bad]} at position ${bad} is not in the vocabulary (0..${tokenizer.vocabSize - 1})`);
      ids = input;
    }
    const maxPositions = backend.info.maxPositions;
    const keep = options.truncatePromptTokens === -1 ? maxPositions : options.truncatePromptTokens;
    if (keep !== undefined && ids.length > keep) ids = ids.slice(ids.length - keep);
    if (ids.length > maxPositions) {
      throw new HttpError(
        400,
        'BadRequestError',
        `This model's maximum context length is ${maxPositions} tokens. However, you requested ${ids.length} tokens in the input. Please reduce the length of the input.`,
      );
    }
    const positions = ids.flatMap((id, position) => (this.stepTagId === undefined || id === this.stepTagId ? [position] : []));
    return { ids: Int32Array.from(ids), positions };
  }

  /** Runs prompts as one padded forward pass and gives, per prompt, one row per read position. */
  async run(jobs: readonly PoolingJob[], useActivation: boolean): Promise<number[][][]> {
    const { backend, tokenizer, recipe } = this.prm;
    const reading = jobs.flatMap((job, index) => (job.positions.length > 0 ? [index] : []));
    const result = await forwardInBatches(
      backend,
      reading.map((index) => ({ inputIds: jobs[index]!.ids, positions: jobs[index]!.positions })),
      {
        batchSize: Math.max(1, reading.length),
        padding: 'right',
        padTokenId: tokenizer.padTokenId,
        read: (positions) => ({ kind: 'head', head: recipe.head, positions, ...(this.columns ? { columns: this.columns } : {}) }),
      },
    );
    const rows: number[][][] = jobs.map(() => []);
    reading.forEach((jobIndex, row) => {
      const values = result.values[row]!;
      rows[jobIndex] = jobs[jobIndex]!.positions.map((_, read) =>
        activateRow(values.subarray(read * result.width, (read + 1) * result.width), recipe, useActivation),
      );
    });
    return rows;
  }
}
