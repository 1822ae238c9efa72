import { type BackendV1, type CacheHandleV1, InvalidInputError } from '@reward-lens/spec';
import { padRows } from '@reward-lens/spec/internal';

import type { PrmTokenizer } from '@reward-lens/tokenizers';
import { Sampler } from './sampler.js';

export interface GenerateOptions {
  /** New tokens to generate at most, per prompt. */
  maxTokens: number;
  /** 0 (default) is greedy. */
  temperature?: number;
  /** Nucleus sampling threshold; 1 (default) samples from the whole distribution. */
  topP?: number;
  /** Seeds sampling; every prompt gets the same seed, so batching does not change its text. Default 0. */
  seed?: number;
  /** Stop when the continuation contains one of these (a step delimiter such as `"\n"`, say). */
  stop?: readonly string[];
  /** Keep the stop string at the end of the text. Default false. */
  includeStop?: boolean;
  /** Tokens that end a sequence (not included). Default: the tokenizer's EOS and BOS, as llama2.c stops at BOS. */
  stopTokenIds?: readonly number[];
  /** Prepend BOS to each prompt. Default: when the tokenizer has one. */
  addBos?: boolean;
  /** The LM head's name. Default `lm`. */
  head?: string;
}

export type StopReason = 'max-tokens' | 'stop-token' | 'stop-string' | 'max-positions';

export interface Generation {
  prompt: string;
  /** The continuation as it reads after the prompt, cut before a stop string unless `includeStop`. */
  text: string;
  /** The prompt (its tokens decoded) followed by `text`: what llama2.c's run prints. */
  fullText: string;
  /** Generated token ids (a stop token not included). */
  tokenIds: number[];
  stopReason: StopReason;
}

interface Row {
  prompt: string;
  promptIds: number[];
  /** The prompt's ids without BOS, decoded: the text the continuation follows. */
  promptText: string;
  generated: number[];
  sampler: Sampler;
  cache: CacheHandleV1 | null;
  done: StopReason | null;
  text: string;
}

/**
 * Generates continuations of several prompts in batched forward passes over the backend's KV
 * cache: the prompts in one pass, then one token per active prompt per pass. Each prompt's text
 * is what it would be alone.
 *
 * @example
 * const [result] = await generate(backend, tokenizer, ['Once upon a time'], { maxTokens: 50, stop: ['\n'] });
 */
export async function generate(backend: BackendV1, tokenizer: PrmTokenizer, prompts: readonly string[], options: GenerateOptions): Promise<Generation[]> {
  if (!backend.supportsCache) throw new InvalidInputError(`generation needs a backend with a KV cache; "${backend.name}" has none`);
  if (!Number.isInteger(options.maxTokens) || options.maxTokens < 0)
    throw new InvalidInputError(`maxTokens must be a non-negative integer, got ${options.maxTokens}`);
  const head = options.head ?? 'lm';
  if (!backend.info.heads.some((candidate) => candidate.name === head && candidate.kind === 'lm')) {
    throw new InvalidInputError(`generation reads an LM head named "${head}", which backend "${backend.name}" does not have`);
  }
  const addBos = options.addBos ?? tokenizer.bosTokenId !== null;
  const stopTokens = new Set(options.stopTokenIds ?? [tokenizer.eosTokenId, tokenizer.bosTokenId].filter((id): id is number => id !== null));
  const stops = (options.stop ?? []).filter((stop) => stop.length > 0);
  const rows: Row[] = prompts.map((prompt, index) => {
    const promptIds = tokenizer.encode(prompt).ids;
    const ids = addBos && tokenizer.bosTokenId !== null ? [tokenizer.bosTokenId, ...promptIds] : promptIds;
    if (ids.length === 0) throw new InvalidInputError('an empty prompt needs a BOS token to start from', { location: `prompt ${index}` });
    return {
      prompt,
      promptIds: ids,
      promptText: tokenizer.decode(promptIds),
      generated: [],
      sampler: new Sampler({ temperature: options.temperature ?? 0, topP: options.topP ?? 1, seed: options.seed ?? 0 }),
      cache: null,
      done: options.maxTokens === 0 ? 'max-tokens' : null,
      text: '',
    };
  });

  try {
    let pending = rows.filter((row) => !row.done).map((row) => ({ row, ids: row.promptIds }));
    while (pending.length > 0) {
      const logits = await stepForward(backend, head, pending);
      for (const [index, { row }] of pending.entries())
        advance(row, row.sampler.sample(logits[index]!), tokenizer, stopTokens, stops, options, backend.info.maxPositions);
      pending = rows.filter((row) => !row.done).map((row) => ({ row, ids: [row.generated[row.generated.length - 1]!] }));
    }
  } finally {
    for (const row of rows) row.cache?.release();
  }

  return rows.map((row) => ({ prompt: row.prompt, text: row.text, fullText: row.promptText + row.text, tokenIds: row.generated, stopReason: row.done! }));
}

/** One forward pass over each pending row's new tokens (after its cache); the LM logits at each row's last token. */
async function stepForward(backend: BackendV1, head: string, pending: { row: Row; ids: number[] }[]): Promise<Float32Array[]> {
  const { batchSize, sequenceLength, inputIds, attentionMask } = padRows(pending.map(({ ids }) => ids));
  const result = await backend.doForward({
    batchSize,
    sequenceLength,
    inputIds,
    attentionMask,
    reads: [{ kind: 'head', head, positions: pending.map(({ ids }) => [ids.length - 1]) }],
    past: pending.map(({ row }) => row.cache),
    returnCache: true,
  });
  pending.forEach(({ row }, index) => {
    row.cache?.release();
    row.cache = result.caches![index]!;
  });
  return result.reads[0]!.values;
}

/**
 * The continuation as it reads after the prompt: the prompt and the new tokens are decoded
 * together (a SentencePiece decoder would drop the leading space of new tokens decoded alone),
 * then the prompt's own text is cut off the front.
 */
function continuationText(row: Row, tokenizer: PrmTokenizer): string {
  const promptIds = row.promptIds[0] === tokenizer.bosTokenId ? row.promptIds.slice(1) : row.promptIds;
  const full = tokenizer.decode([...promptIds, ...row.generated]);
  return full.startsWith(row.promptText) ? full.slice(row.promptText.length) : tokenizer.decode(row.generated);
}

function advance(
  row: Row,
  token: number,
  tokenizer: PrmTokenizer,
  stopTokens: ReadonlySet<number>,
  stops: readonly string[],
  options: GenerateOptions,
  maxPositions: number,
): void {
  if (stopTokens.has(token)) {
    row.done = 'stop-token';
    return;
  }
  row.generated.push(token);
  row.text = continuationText(row, tokenizer);
  for (const stop of stops) {
    const at = row.text.indexOf(stop);
    if (at >= 0) {
      row.text = row.text.slice(0, options.includeStop ? at + stop.length : at);
      row.done = 'stop-string';
      return;
    }
  }
  if (row.generated.length >= options.maxTokens) row.done = 'max-tokens';
  else if (row.promptIds.length + row.generated.length >= maxPositions) row.done = 'max-positions';
}
