import { defaultShardTokens, type TinyBackendOptions } from '@reward-lens/backend-tiny';
import { InvalidInputError, type DecoderConfig, type ReadingRecipe } from '@reward-lens/core';
import type { RecordSource } from './data/record-source.js';
import type { StepRecord } from './data/step-record.js';
import type { TrainingEvent } from './progress/training-event.js';

/** Where the weights come from. */
export type ModelInit =
  /** Fresh weights (`initializeDecoder`) for a config, with a tokenizer; the config's heads are replaced by the recipe's. */
  | { kind: 'scratch'; config: DecoderConfig; tokenizerJson: unknown; tokenizerConfig?: unknown }
  /**
   * A Hugging Face folder to fine-tune (heads it lacks are initialised); with `growLayers`,
   * grown first to that many layers by block expansion (`growDecoder`: new blocks that start as
   * the identity, so training continues from what the folder computes).
   */
  | { kind: 'folder'; folder: string; growLayers?: number };

export interface TrainOptions {
  /** The training records: a finite list (reshuffled each epoch) or a `RecordSource`. */
  data: RecordSource | readonly StepRecord[];
  /** Held-out records for evaluation during training. */
  heldOut?: readonly StepRecord[];
  /** Says what the held-out records are, for the model card. */
  heldOutDescription?: string;
  /** The output folder: the final model at its root, resumable checkpoints under `checkpoints/`. */
  out: string;
  /** Ignored when resuming from a checkpoint. */
  init: ModelInit;
  /** How the model is read and trained; default `trl-token-classification` (a 2-class head at each step's separator). */
  recipe?: ReadingRecipe | string;
  /** Optimizer steps in all (a resumed run continues to this many). */
  steps: number;
  /** Real tokens per batch. Default 4096. */
  batchTokens?: number;
  /** Peak learning rate. Default 3e-4. */
  learningRate?: number;
  /** End of the cosine decay. Default learningRate / 10. */
  minLearningRate?: number;
  /** Default min(100, steps / 10). */
  warmupSteps?: number;
  /** AdamW's decoupled weight decay. Default 0.01. */
  weightDecay?: number;
  /** Global gradient-norm clip. Default 1. */
  clipNorm?: number;
  beta1?: number;
  beta2?: number;
  /** Seeds initialisation and shuffling. Default 0. */
  seed?: number;
  /** Steps after the first error are left out of the loss (Math-Shepherd, PRM800K). Default true. */
  untilFirstError?: boolean;
  /**
   * Weight of an auxiliary next-token loss on the correct text (the problem and the steps before
   * the first wrong one; see `TrainingExample.correctTextEnd`), read through a language-model head
   * tied to the embeddings. Dense supervision that teaches a model trained from scratch the
   * arithmetic and copying a step check needs, as a pretrained LM brings them to a fine-tuned PRM.
   * Default 0 (off).
   */
  languageModelWeight?: number;
  /** Evaluate on the held-out records every this many steps (and at the end). Default steps / 10. */
  evaluateEvery?: number;
  /** ProcessBench's threshold: a step scoring below it is predicted wrong. Default 0.5. */
  threshold?: number;
  /** Write a resumable checkpoint every this many steps. Default 100. */
  checkpointEvery?: number;
  /** Checkpoints kept (the oldest are deleted). Default 2. */
  keepCheckpoints?: number;
  /** Continue from the latest checkpoint in `<out>/checkpoints` when there is one. */
  resume?: boolean;
  /** Stops the run between steps; a checkpoint is written first, so nothing is computed twice. */
  signal?: AbortSignal;
  onEvent?: (event: TrainingEvent) => void;
  /** backend-tiny's kernels. Default `'auto'`. */
  kernels?: TinyBackendOptions['kernels'];
  /**
   * Threads to train on (backend-tiny's workers; default every core). The weights after N steps
   * are the same, bit for bit, whatever the count: a batch's gradient is the sum, in a fixed
   * order, of its shards' (`shardTokens`).
   */
  threads?: number;
  /** Real tokens per gradient shard (default 256, backend-tiny's). The results depend on it, so a resumed run keeps it. */
  shardTokens?: number;
  /** The model card's title. */
  title?: string;
}

/** Loss and schedule settings with defaults filled in; stored in the checkpoint and checked on resume. */
export function hyperparametersOf(options: TrainOptions, recipe: ReadingRecipe): Record<string, unknown> {
  const learningRate = options.learningRate ?? 3e-4;
  return {
    recipe: recipe.name,
    steps: options.steps,
    batchTokens: options.batchTokens ?? 4096,
    learningRate,
    minLearningRate: options.minLearningRate ?? learningRate / 10,
    warmupSteps: options.warmupSteps ?? Math.min(100, Math.floor(options.steps / 10)),
    weightDecay: options.weightDecay ?? 0.01,
    clipNorm: options.clipNorm ?? 1,
    beta1: options.beta1 ?? 0.9,
    beta2: options.beta2 ?? 0.95,
    seed: options.seed ?? 0,
    untilFirstError: options.untilFirstError ?? true,
    languageModelWeight: options.languageModelWeight ?? 0,
    shardTokens: options.shardTokens ?? defaultShardTokens,
  };
}

/** Refuses options that cannot run, naming the option. */
export function checkOptions(options: TrainOptions): void {
  const positive = (name: string, value: number | undefined) => {
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) throw new InvalidInputError(`${name} must be a positive integer, got ${value}`);
  };
  positive('steps', options.steps);
  positive('batchTokens', options.batchTokens);
  positive('checkpointEvery', options.checkpointEvery);
  positive('keepCheckpoints', options.keepCheckpoints);
  positive('threads', options.threads);
  positive('shardTokens', options.shardTokens);
  if (options.languageModelWeight !== undefined && !(options.languageModelWeight >= 0))
    throw new InvalidInputError(`languageModelWeight must be at least 0, got ${options.languageModelWeight}`);
  if (options.learningRate !== undefined && !(options.learningRate > 0))
    throw new InvalidInputError(`learningRate must be positive, got ${options.learningRate}`);
}
