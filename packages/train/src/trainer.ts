import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { createTinyBackend } from '@reward-lens/backend-tiny';
import {
  createHfTokenizer,
  InvalidInputError,
  ProcessRM,
  recipeColumns,
  resolveRecipe,
  type BackendV1,
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
import { checkOptions, hyperparametersOf, type TrainOptions } from './train-options.js';

export type { ModelInit, TrainOptions } from './train-options.js';

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

/** The model with the language-model head the auxiliary loss reads (tied: no new weights unless the embeddings are untied). */
function withLanguageModelHead(model: DecoderModel, seed: number): DecoderModel {
  if (model.config.heads.some((head) => head.name === auxiliaryLanguageModelHead)) return model;
  const config = { ...model.config, heads: [...model.config.heads, { name: auxiliaryLanguageModelHead, kind: 'lm' as const }] };
  return initializeDecoder(config, seed, {}, model.tensors);
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
  const columns = recipeColumns(recipe, tokenizer);
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
