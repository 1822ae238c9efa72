import { backendCreateOptions } from '@reward-lens/spec/internal';
import {
  BackendResolutionError,
  registeredBackends,
  resolveBackend,
  type ResolvedBackend,
  InvalidInputError,
  createRandomDecoder,
  tinyDecoderConfig,
  type DecoderConfig,
  type WeightDtypeV1,
} from '@reward-lens/spec';

import { createByteBpeTokenizer, type PrmTokenizer } from '@reward-lens/tokenizers';

export interface TinyModelOptions {
  /** Seed of the random weights. Default 0. */
  seed?: number;
  /** Architecture of the random model; defaults to `tinyDecoderConfig` (vocabulary of the byte-BPE tokenizer). */
  config?: DecoderConfig;
  /** Which backend runs it: `'tiny'` (default), another registered backend, or `'auto'`. */
  backend?: string;
  /** Per-backend settings, under the backend's name. */
  backendSettings?: Record<string, unknown>;
  /** CPU threads to compute on (see `BackendCreateOptions.threads`); default every core. */
  threads?: number;
  /** How the backend holds the weights (see `BackendCreateOptions.dtype`); default `'fp32'`. */
  dtype?: WeightDtypeV1;
}

/**
 * Core imports no backend: `'tiny'` is whatever registered under that name, which is
 * backend-tiny once its `register` entry has been imported (model-default and the CLI import it).
 */
function checkTinyRegistered(): void {
  if (registeredBackends().some((registration) => registration.name === 'tiny')) return;
  throw new BackendResolutionError('tiny', [
    { name: 'tiny', reason: 'not registered: import "@reward-lens/backend-tiny/register" first (install @reward-lens/backend-tiny)' },
  ]);
}

/** The seeded random model with the byte-BPE tokenizer it was sized for, on the requested backend. */
export async function loadTinyModel(options: TinyModelOptions): Promise<ResolvedBackend & { tokenizer: PrmTokenizer }> {
  const seed = options.seed ?? 0;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new InvalidInputError(`seed must be an integer from 0 to 4294967295, got ${seed}`);
  const requested = options.backend ?? 'tiny';
  if (requested === 'tiny') checkTinyRegistered();
  const config = options.config ?? tinyDecoderConfig;
  const model = createRandomDecoder({ seed, config });
  const resolved = await resolveBackend(
    requested,
    {
      kind: 'decoder',
      model,
      description: `the seeded tiny model (seed ${seed}, hidden ${config.hiddenSize}, ${config.numLayers} layers; random weights: scores carry no meaning)`,
    },
    backendCreateOptions(options),
  );
  return { ...resolved, tokenizer: createByteBpeTokenizer() };
}
