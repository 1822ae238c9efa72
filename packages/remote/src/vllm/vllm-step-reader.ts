import { InvalidInputError, UnsupportedCapabilityError } from '@reward-lens/core';

import type { ReadingRecipe, StepScoreSource, TokenizedPair } from '@reward-lens/core';
import type { ConcurrencyLimit } from '../http/concurrency-limit.js';
import { RemoteResponseError } from '../http/remote-response-error.js';
import { requestJson } from '../http/request-json.js';
import type { RemoteHttpSettings } from '../http/with-retries.js';
import { poolingRowsOf, type VllmPoolingRequest } from './vllm-pooling-protocol.js';

export interface VllmStepReaderSettings {
  /** The server's `/pooling` URL. */
  poolingUrl: string;
  model: string;
  recipe: ReadingRecipe;
  /** The step tag as text, for messages. */
  stepTag: string;
  /** The step tag's id in the ids of the tokenized pairs. */
  stepTagId: number;
  /** The tag's id in the server's tokenizer, when known (for the hint of a wrong pooler config). */
  serverStepTagId?: number;
  /** Send the pairs' token ids (a local tokenizer made them) rather than their text. */
  sendTokenIds: boolean;
  /** Values per row: 2 for [negative, positive] (or [+, -]), 1 for a sigmoid head. */
  rowWidth: number;
  http: RemoteHttpSettings;
  limit: ConcurrencyLimit;
}

/** A softmax row sums to 1 up to the rounding of the server's dtype (bf16 keeps 8 bits). */
const probabilityTolerance = 0.02;

function requestFor(pair: TokenizedPair, settings: VllmStepReaderSettings): VllmPoolingRequest {
  if (settings.sendTokenIds) return { model: settings.model, input: Array.from(pair.inputIds) };
  // The server's tokenizer adds BOS to a text prompt with add_special_tokens, as the recipe wants it or not.
  return { model: settings.model, input: pair.text, add_special_tokens: settings.recipe.addBos };
}

function rowCountHint(rows: number, tags: number, promptTokens: number | undefined, settings: VllmStepReaderSettings): string {
  const tagId = settings.serverStepTagId ?? '<its id>';
  if (promptTokens !== undefined && rows === promptTokens && rows !== tags) {
    return `one row per token: the pooler has no step_tag_id; serve the model with --pooler-config '{"pooling_type": "STEP", "step_tag_id": ${tagId}}'`;
  }
  return `the server's step_tag_id is not the id of ${JSON.stringify(settings.stepTag)} in its tokenizer (${tagId}), or it splits the tag into several tokens`;
}

function checkRows(rows: number[][], settings: VllmStepReaderSettings, location: string): void {
  const softmax = settings.recipe.activation === 'softmax';
  rows.forEach((row, index) => {
    if (row.length !== settings.rowWidth) {
      const hint =
        settings.recipe.head === 'lm' ? `; serve it with "returned_token_ids" set to the ids of the recipe's ${settings.rowWidth} candidate tokens` : '';
      throw new RemoteResponseError(settings.poolingUrl, `${location}: row ${index} has ${row.length} values, expected ${settings.rowWidth}${hint}`);
    }
    const sum = row.reduce((total, value) => total + value, 0);
    const inRange = row.every((value) => value >= -1e-6 && value <= 1 + 1e-6);
    if (!inRange || (softmax && Math.abs(sum - 1) > probabilityTolerance)) {
      throw new RemoteResponseError(
        settings.poolingUrl,
        `${location}: row ${index} ${JSON.stringify(row)} is not a probability${softmax ? ' distribution' : ''}; the server returned raw outputs (was use_activation turned off?)`,
      );
    }
  });
}

async function readPair(pair: TokenizedPair, index: number, settings: VllmStepReaderSettings, signal: AbortSignal | undefined): Promise<number[]> {
  const location = `pair ${index}`;
  const readPositions = pair.readPositions.filter((position) => position >= 0);
  const tags = pair.inputIds.reduce((count, id) => count + (id === settings.stepTagId ? 1 : 0), 0);
  if (tags !== readPositions.length) {
    throw new InvalidInputError(
      `the laid-out text holds the step tag ${JSON.stringify(settings.stepTag)} ${tags} times for ${readPositions.length} steps: the problem or a step contains it, so the server's rows could not be matched to steps`,
      { location },
    );
  }
  const body = await settings.limit.run(() =>
    requestJson(settings.poolingUrl, { method: 'POST', body: JSON.stringify(requestFor(pair, settings)) }, withCallSignal(settings.http, signal)),
  );
  const parsed = poolingRowsOf(body, 1);
  if ('problem' in parsed) throw new RemoteResponseError(settings.poolingUrl, `${location}: ${parsed.problem}`);
  const rows = parsed.rows[0]!;
  if (rows.length !== tags) {
    throw new RemoteResponseError(
      settings.poolingUrl,
      `${location}: ${rows.length} rows for ${tags} steps; ${rowCountHint(rows.length, tags, parsed.promptTokens, settings)}`,
    );
  }
  checkRows(rows, settings, location);
  const positive = settings.recipe.activation === 'softmax' ? settings.recipe.positiveIndex : 0;
  return rows.map((row) => row[positive]!);
}

/** The client's settings with a call's signal too: either one aborts. */
function withCallSignal(http: RemoteHttpSettings, signal: AbortSignal | undefined): RemoteHttpSettings {
  if (signal === undefined) return http;
  return { ...http, signal: http.signal ? AbortSignal.any([http.signal, signal]) : signal };
}

/**
 * Scores pairs on a vLLM server through its `/pooling` endpoint: one request per pair (at most
 * the concurrency limit in flight), the rendered prompt (or its token ids) in, one row per step
 * tag out, P(positive) taken from each row. Every row count, width and sum is checked, so a
 * server started with the wrong pooler settings is named, not silently misread.
 */
export function createVllmStepReader(settings: VllmStepReaderSettings): Pick<StepScoreSource, 'readScores'> {
  return {
    async readScores(pairs, positions, layer, signal) {
      if (layer !== undefined)
        throw new UnsupportedCapabilityError({ capability: 'LINEAR_READOUT', backend: 'vllm', operation: 'stepScores at an inner layer' });
      return Promise.all(
        pairs.map(async (pair, index) => {
          if (pair === null || positions[index]!.length === 0) return new Float32Array(0);
          const scores = await readPair(pair, index, settings, signal);
          const readPositions = pair.readPositions.filter((position) => position >= 0);
          return Float32Array.from(positions[index]!, (position) => scores[readPositions.indexOf(position)]!);
        }),
      );
    },
  };
}
