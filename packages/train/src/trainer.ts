import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { createTinyBackend, defaultShardTokens, type TinyBackendOptions } from '@reward-lens/backend-tiny';
import {
  createHfTokenizer,
  InvalidInputError,
  ProcessRM,
  resolveRecipe,
  type BackendV1,
  type DecoderConfig,
  type DecoderModel,
  type PrmTokenizer,
  type ReadingRecipe,
} from '@reward-lens/core';
import { changedFingerprints, dataFingerprint, recipeFingerprint, tokenizerFingerprint } from './checkpoint/run-fingerprints.js';
import { checkpointFolderName, listCheckpoints, readCheckpoint, writeCheckpoint, writeModelFolder } from './checkpoint/checkpoint-folder.js';
import { modelCard } from './checkpoint/model-card.js';
import type { TrainerState } from './checkpoint/trainer-state.js';
import { BatchStream } from './data/batch-stream.js';
import { recordsSource, type RecordSource } from './data/record-source.js';
import type { StepRecord } from './data/step-record.js';
import { evaluateHeldOut, prepareHeldOut, type HeldOutMetrics } from './evaluation/evaluate-held-out.js';
import { auxiliaryLanguageModelHead, batchLoss, batchRequest, type BatchLoss } from './loss/batch-loss.js';
import { growDecoder } from './model/grow-decoder.js';
import { initializeDecoder } from './model/initialize-decoder.js';
import { loadModelFolder } from './model/load-model-folder.js';
import { AdamW, clipGradientNorm } from './optim/adamw.js';
import { learningRateAt } from './optim/learning-rate.js';
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

export interface TrainResult {
  step: number;
  stopped: 'completed' | 'aborted' | 'data-exhausted';
  /** The folder holding the latest weights: `out` when completed, else the last checkpoint. */
  folder: string;
  model: DecoderModel;
  state: TrainerState;
  /** The last held-out evaluation, if any. */
  heldOut: HeldOutMetrics | undefined;
}

/** Loss and schedule settings with defaults filled in; stored in the checkpoint and checked on resume. */
function hyperparametersOf(options: TrainOptions, recipe: ReadingRecipe): Record<string, unknown> {
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

/** The model with the language-model head the auxiliary loss reads (tied: no new weights unless the embeddings are untied). */
function withLanguageModelHead(model: DecoderModel, seed: number): DecoderModel {
  if (model.config.heads.some((head) => head.name === auxiliaryLanguageModelHead)) return model;
  const config = { ...model.config, heads: [...model.config.heads, { name: auxiliaryLanguageModelHead, kind: 'lm' as const }] };
  return initializeDecoder(config, seed, {}, model.tensors);
}

function checkOptions(options: TrainOptions): void {
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

function resolveColumns(recipe: ReadingRecipe, tokenizer: PrmTokenizer): number[] | undefined {
  return recipe.columns?.map((column) => {
    if (typeof column === 'number') return column;
    const id = tokenizer.tokenToId(column.token);
    if (id === undefined) throw new InvalidInputError(`recipe "${recipe.name}" reads token ${JSON.stringify(column.token)}, which the tokenizer does not have`);
    return id;
  });
}

/**
 * Trains a process reward model on backend-tiny: per-step binary cross-entropy at the step
 * boundaries (hard or soft labels), AdamW with warm-up and cosine decay, gradient clipping,
 * batches packed by token count, held-out ProcessBench F1 and loss during training, and
 * resumable checkpoints as Hugging Face folders (weights, optimizer moments, data cursor,
 * shuffle state). A run resumed from its last checkpoint ends with the weights of an
 * uninterrupted run, bit for bit.
 *
 * @example
 * const result = await trainProcessRewardModel({
 *   data: records, heldOut, out: 'prm-out', steps: 500, batchTokens: 4096,
 *   init: { kind: 'scratch', config, tokenizerJson },
 * });
 */
export async function trainProcessRewardModel(options: TrainOptions): Promise<TrainResult> {
  checkOptions(options);
  const recipe = resolveRecipe(options.recipe ?? 'trl-token-classification');
  const hyperparameters = hyperparametersOf(options, recipe);
  const seed = hyperparameters.seed as number;
  const source = Array.isArray(options.data) ? recordsSource(options.data as readonly StepRecord[], { seed }) : (options.data as RecordSource);
  const notes: string[] = [];

  // The weights, the tokenizer, the optimizer state and the run's state: from a checkpoint, a folder or scratch.
  const latest = options.resume ? (await listCheckpoints(options.out)).at(-1) : undefined;
  let model: DecoderModel;
  let tokenizerJson: unknown;
  let tokenizerConfig: unknown;
  let state: TrainerState;
  const checkpoint = latest ? await readCheckpoint(latest.folder, recipe) : undefined;
  const fingerprints = { data: dataFingerprint(source), tokenizer: await tokenizerFingerprint(options.init), recipe: recipeFingerprint(recipe) };
  if (checkpoint) {
    const differs = changedFingerprints(checkpoint.state.fingerprints, fingerprints);
    if (differs.length > 0) {
      throw new InvalidInputError(
        `cannot resume ${checkpoint.folder} with different inputs: ${differs.join('; ')}; train into a new --out, or give the run's own`,
      );
    }
    const changed = Object.keys(hyperparameters).filter(
      (key) => JSON.stringify(hyperparameters[key]) !== JSON.stringify(checkpoint.state.hyperparameters[key]),
    );
    if (changed.length > 0) {
      throw new InvalidInputError(
        `cannot resume ${checkpoint.folder} with different settings: ${changed.map((key) => `${key} was ${JSON.stringify(checkpoint.state.hyperparameters[key])}, now ${JSON.stringify(hyperparameters[key])}`).join('; ')}`,
      );
    }
    ({ model, tokenizerJson, tokenizerConfig, state } = checkpoint);
  } else {
    if (options.init.kind === 'scratch') {
      model = initializeDecoder({ ...options.init.config, heads: recipe.heads }, seed);
      tokenizerJson = options.init.tokenizerJson;
      tokenizerConfig = options.init.tokenizerConfig;
      notes.push(`initialised from scratch (seed ${seed})`);
    } else {
      const loaded = await loadModelFolder(options.init.folder, recipe, seed);
      ({ model, tokenizerJson, tokenizerConfig } = loaded);
      notes.push(`fine-tuned from ${options.init.folder}`, ...loaded.notes);
      const { growLayers } = options.init;
      if (growLayers !== undefined && growLayers !== model.config.numLayers) {
        notes.push(`grown from ${model.config.numLayers} to ${growLayers} layers (new blocks start as the identity, seed ${seed})`);
        model = growDecoder(model, growLayers, seed);
      }
    }
    state = {
      formatVersion: 1,
      step: 0,
      totalSteps: options.steps,
      cursor: 0,
      random: { seed },
      tokensSeen: 0,
      recordsSkipped: 0,
      trainingSeconds: 0,
      hyperparameters,
      data: { training: source.description, heldOut: options.heldOut ? (options.heldOutDescription ?? `${options.heldOut.length} held-out records`) : null },
      losses: [],
      evaluations: [],
      notes,
      fingerprints: Object.fromEntries(Object.entries(fingerprints).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    };
  }

  if ((hyperparameters.languageModelWeight as number) > 0) model = withLanguageModelHead(model, seed);
  const tokenizer = createHfTokenizer(tokenizerJson, tokenizerConfig ?? undefined, { name: 'training tokenizer' });
  if (tokenizer.vocabSize > model.config.vocabSize) {
    throw new InvalidInputError(`the tokenizer has ${tokenizer.vocabSize} tokens but the model only ${model.config.vocabSize}`);
  }
  const backend: BackendV1 = createTinyBackend(model, {
    kernels: options.kernels ?? 'auto',
    shardTokens: hyperparameters.shardTokens as number,
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
  });
  try {
    return await runTraining({ options, recipe, hyperparameters, source, model, tokenizer, tokenizerJson, tokenizerConfig, backend, state, checkpoint });
  } finally {
    await backend.dispose();
  }
}

interface Run {
  options: TrainOptions;
  recipe: ReadingRecipe;
  hyperparameters: Record<string, unknown>;
  source: RecordSource;
  model: DecoderModel;
  tokenizer: PrmTokenizer;
  tokenizerJson: unknown;
  tokenizerConfig: unknown;
  backend: BackendV1;
  state: TrainerState;
  checkpoint: Awaited<ReturnType<typeof readCheckpoint>> | undefined;
}

async function runTraining(run: Run): Promise<TrainResult> {
  const { options, recipe, hyperparameters, source, model, tokenizer, backend, state } = run;
  const emit = (event: TrainingEvent) => options.onEvent?.(event);
  const prm = ProcessRM.fromBackend(backend, tokenizer, { recipe });
  const columns = resolveColumns(recipe, tokenizer);
  const policy = { untilFirstError: hyperparameters.untilFirstError as boolean };
  const optimizer = new AdamW(model.tensors, {
    beta1: hyperparameters.beta1 as number,
    beta2: hyperparameters.beta2 as number,
    weightDecay: hyperparameters.weightDecay as number,
  });
  if (run.checkpoint) optimizer.load(run.checkpoint.optimizer);
  const schedule = {
    peak: hyperparameters.learningRate as number,
    minimum: hyperparameters.minLearningRate as number,
    warmupSteps: hyperparameters.warmupSteps as number,
    totalSteps: options.steps,
  };
  const heldOut = options.heldOut ? prepareHeldOut(prm, options.heldOut, policy) : undefined;
  const batchTokens = hyperparameters.batchTokens as number;
  const evaluateEvery = options.evaluateEvery ?? Math.max(1, Math.floor(options.steps / 10));
  const checkpointEvery = options.checkpointEvery ?? 100;
  const title = options.title ?? 'A process reward model trained with reward-lens';
  const contents = () => ({
    model,
    tokenizerJson: run.tokenizerJson,
    tokenizerConfig: run.tokenizerConfig,
    recipe,
    modelCard: modelCard(model, recipe, state, title),
  });

  const evaluate = async () => {
    if (!heldOut) return;
    const metrics = await evaluateHeldOut(backend, heldOut, recipe, columns, tokenizer.padTokenId, { threshold: options.threshold ?? 0.5, batchTokens });
    state.evaluations.push({ step: state.step, ...metrics });
    emit({ kind: 'evaluation', step: state.step, metrics });
  };
  const saveCheckpoint = async () => {
    const randomState = source.randomStateAt(state.cursor);
    state.random = { seed: state.random.seed, ...(randomState ?? {}) };
    const folder = join(options.out, 'checkpoints', checkpointFolderName(state.step));
    await writeCheckpoint(folder, contents(), optimizer.state, state);
    const all = await listCheckpoints(options.out);
    for (const old of all.slice(0, Math.max(0, all.length - (options.keepCheckpoints ?? 2)))) await rm(old.folder, { recursive: true, force: true });
    emit({ kind: 'checkpoint', step: state.step, folder });
    return folder;
  };

  const parameters = [...model.tensors.values()].reduce((sum, tensor) => sum + tensor.length, 0);
  emit({
    kind: 'start',
    step: state.step,
    totalSteps: options.steps,
    parameters,
    resumedFrom: run.checkpoint?.folder ?? null,
    notes: state.notes,
    backend: backend.info.description,
  });
  if (heldOut && state.step === 0 && state.evaluations.length === 0) await evaluate();

  const batches = new BatchStream(source, state.cursor, prm, batchTokens, policy);
  let prefetched: { batch: ReturnType<BatchStream['next']> } | undefined;
  const sessionStart = performance.now();
  let sessionTokens = 0;
  let stopped: TrainResult['stopped'] = 'completed';
  let lastCheckpoint = run.checkpoint?.folder;
  while (state.step < options.steps) {
    if (options.signal?.aborted) {
      stopped = 'aborted';
      break;
    }
    const batch = prefetched ? prefetched.batch : batches.next();
    prefetched = undefined;
    if (!batch) {
      stopped = 'data-exhausted';
      break;
    }
    const stepStart = performance.now();
    let loss: BatchLoss | undefined;
    const languageModelWeight = hyperparameters.languageModelWeight as number;
    const pass = backend.doBackward!({
      ...batchRequest(batch.examples, recipe, columns, tokenizer.padTokenId, { languageModel: languageModelWeight > 0 }),
      wrt: { parameters: true, inputEmbeddings: false },
      readGradients: (reads) => {
        const computed = batchLoss(batch.examples, reads, recipe, { languageModelWeight });
        loss = computed.value;
        return computed.gradients;
      },
    });
    // While the backend's worker threads run this batch, this thread reads and tokenizes the next
    // (a stop or the end discards it: the checkpoint's cursor is this batch's end, so nothing is lost).
    if (state.step + 1 < options.steps && !options.signal?.aborted) prefetched = { batch: batches.next() };
    const result = await pass;
    const gradients = result.parameters!;
    const gradientNorm = clipGradientNorm(gradients, hyperparameters.clipNorm as number);
    const learningRate = learningRateAt(schedule, state.step);
    optimizer.step(gradients, learningRate);
    await backend.doUpdateParameters!(model.tensors);

    state.step++;
    state.cursor = batch.cursorAfter;
    state.tokensSeen += batch.tokens;
    state.recordsSkipped += batch.skipped.length;
    state.trainingSeconds += (performance.now() - stepStart) / 1000;
    const languageModelLoss = loss!.languageModelLoss !== undefined ? { languageModelLoss: loss!.languageModelLoss } : {};
    state.losses.push({ step: state.step, loss: loss!.loss, ...languageModelLoss, learningRate, gradientNorm });
    sessionTokens += batch.tokens;
    const elapsed = (performance.now() - sessionStart) / 1000;
    const tokensPerSecond = sessionTokens / Math.max(elapsed, 1e-9);
    emit({
      kind: 'step',
      step: state.step,
      totalSteps: options.steps,
      loss: loss!.loss,
      ...languageModelLoss,
      learningRate,
      gradientNorm,
      tokens: batch.tokens,
      tokensPerSecond,
      etaSeconds: (elapsed / (state.step - (run.checkpoint?.state.step ?? 0))) * (options.steps - state.step),
      skipped: batch.skipped,
    });
    if (state.step % evaluateEvery === 0 || state.step === options.steps) await evaluate();
    if (state.step % checkpointEvery === 0 && state.step < options.steps) lastCheckpoint = await saveCheckpoint();
  }

  // The end (or a stop) always leaves a checkpoint of the last step, so a resume repeats nothing.
  if (lastCheckpoint === undefined || !lastCheckpoint.endsWith(checkpointFolderName(state.step))) lastCheckpoint = await saveCheckpoint();
  let folder = lastCheckpoint;
  if (stopped === 'completed') {
    await writeModelFolder(options.out, contents());
    folder = options.out;
  }
  emit({ kind: 'done', step: state.step, folder, stopped });
  return { step: state.step, stopped, folder, model, state, heldOut: state.evaluations.at(-1) };
}
