import { backendCreateOptions } from '@reward-lens/spec/internal';
import {
  registeredBackends,
  resolveBackend,
  type ResolvedBackend,
  BackendResolutionError,
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

// A variable specifier keeps bundlers from resolving the optional package at build time.
const tinyRegisterEntry = '@reward-lens/backend-tiny/register';

async function ensureTinyRegistered(): Promise<void> {
  if (registeredBackends().some((registration) => registration.name === 'tiny')) return;
  try {
    await import(/* @vite-ignore */ tinyRegisterEntry);
  } catch (error) {
    throw new BackendResolutionError(
      'tiny',
      [
        {
          name: 'tiny',
          reason: `not registered and "${tinyRegisterEntry}" could not be imported (install @reward-lens/backend-tiny and import its register entry)`,
        },
      ],
      { cause: error },
    );
  }
}

/** The seeded random model with the byte-BPE tokenizer it was sized for, on the requested backend. */
export async function loadTinyModel(options: TinyModelOptions): Promise<ResolvedBackend & { tokenizer: PrmTokenizer }> {
  const seed = options.seed ?? 0;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new InvalidInputError(`seed must be an integer from 0 to 4294967295, got ${seed}`);
  const requested = options.backend ?? 'tiny';
  if (requested === 'tiny') await ensureTinyRegistered();
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
