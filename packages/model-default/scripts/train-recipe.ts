import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { organismTokenizerJson } from '@reward-lens/organism';
import { createProgressBar, listCheckpoints, streamSource, trainProcessRewardModel, type TrainerState } from '@reward-lens/train';
import { organismRecord, splitItems, trainingRecords, type ContinuationStage, type DefaultRecipe, type Supervision } from './default-recipe.js';

/** What a training run left (all its stages together): its length, and how many records of the stream it read. */
export interface TrainedRun {
  /** The folder with the final weights. */
  folder: string;
  step: number;
  tokens: number;
  seconds: number;
  records: number;
  heldOutLoss: number;
}

function runOf(folder: string, state: TrainerState): TrainedRun {
  return {
    folder,
    step: state.step,
    tokens: state.tokensSeen,
    seconds: state.trainingSeconds,
    records: state.cursor,
    heldOutLoss: state.evaluations.at(-1)?.loss ?? Number.NaN,
  };
}

/** The second stage's folder beside the first's. */
export const continuedFolder = (folder: string): string => `${folder}-continued`;

/** Stage `index`'s folder (0: the first stage's, 1: `continuedFolder`, then `-stage-3`, `-stage-4`, ...). */
export const stageFolder = (folder: string, index: number): string =>
  index === 0 ? folder : index === 1 ? continuedFolder(folder) : `${folder}-stage-${index + 1}`;

/** Where a run starts: from scratch, or after its first `stages` stages, whose result is `run` (the shipped model, say). */
export type RecipeStart = { stages: 0 } | { stages: number; run: TrainedRun };

/**
 * Trains the recipe's model into `folder` (resuming from its last checkpoint when there is one),
 * on process labels (the default PRM) or outcome labels (its outcome-supervised twin: same model,
 * data, and budget), then each continuation stage in turn, into `stageFolder(folder, k)`. With
 * `start`, the first stages are taken as done (their result given): a stage can continue from
 * the shipped weights. Throws when stopped by `signal`; the same call continues the run.
 */
export async function trainRecipe(
  recipe: DefaultRecipe,
  supervision: Supervision,
  folder: string,
  signal?: AbortSignal,
  start: RecipeStart = { stages: 0 },
  threads?: number,
): Promise<TrainedRun> {
  let run = 'run' in start ? start.run : await trainStage(recipe, supervision, folder, { kind: 'first' }, signal, threads);
  for (let index = Math.max(1, start.stages); index <= recipe.continuations.length; index++) {
    const stage = recipe.continuations[index - 1]!;
    const next = await trainStage(recipe, supervision, stageFolder(folder, index), { kind: 'continued', from: run, stage }, signal, threads);
    run = addRuns(run, next);
  }
  return run;
}

function addRuns(first: TrainedRun, second: TrainedRun): TrainedRun {
  return {
    folder: second.folder,
    step: first.step + second.step,
    tokens: first.tokens + second.tokens,
    seconds: first.seconds + second.seconds,
    records: first.records + second.records,
    heldOutLoss: second.heldOutLoss,
  };
}

type Stage = { kind: 'first' } | { kind: 'continued'; from: TrainedRun; stage: ContinuationStage };

async function trainStage(
  recipe: DefaultRecipe,
  supervision: Supervision,
  folder: string,
  stage: Stage,
  signal: AbortSignal | undefined,
  threads: number | undefined,
): Promise<TrainedRun> {
  const { tokenizerJson, tokenizerConfig } = organismTokenizerJson();
  const heldOut = splitItems(recipe, 'heldOut', recipe.heldOutItems).map((item) => organismRecord(item, item.id));
  const labels = supervision === 'process' ? 'prefix step labels' : 'final-answer labels only (an outcome reward model)';
  const from = stage.kind === 'first' ? 0 : stage.from.records;
  const schedule = stage.kind === 'first' ? recipe : stage.stage;
  const stream = `organism word problems with ${labels}: ${recipe.curriculumItems} curriculum items (2-5 steps, numbers up to 20, seed ${recipe.seed + 500}), then the default organism (seed ${recipe.seed})`;
  const growLayers = stage.kind === 'continued' ? stage.stage.numLayers : undefined;
  const result = await trainProcessRewardModel({
    data: streamSource(() => trainingRecords(recipe, supervision, from), from === 0 ? stream : `${stream}, from record ${from} on (after the earlier stages')`),
    heldOut,
    heldOutDescription: `${heldOut.length} organism items of seed 1000, with prefix step labels`,
    out: folder,
    init:
      stage.kind === 'first'
        ? { kind: 'scratch', config: recipe.config, tokenizerJson, tokenizerConfig }
        : { kind: 'folder', folder: stage.from.folder, ...(growLayers !== undefined ? { growLayers } : {}) },
    steps: schedule.steps,
    batchTokens: recipe.batchTokens,
    learningRate: schedule.learningRate,
    warmupSteps: schedule.warmupSteps,
    languageModelWeight: recipe.languageModelWeight,
    untilFirstError: false,
    seed: recipe.seed,
    evaluateEvery: 250,
    checkpointEvery: 100,
    resume: true,
    ...(threads !== undefined ? { threads } : {}),
    ...(signal ? { signal } : {}),
    title: supervision === 'process' ? 'reward-lens default PRM (organism)' : 'the default PRM recipe on outcome labels (an ORM)',
    onEvent: createProgressBar(process.stderr),
  });
  if (result.stopped !== 'completed') throw new Error(`stopped at step ${result.step} of ${schedule.steps}; the same command continues from ${result.folder}`);
  return runOf(folder, result.state);
}

const fineTunedFrom = 'fine-tuned from ';

/**
 * The run that trained a folder: a checkpoint (it holds trainer_state.json), or a run's folder
 * (its last checkpoint's), with the stages it was fine-tuned from (their notes name them).
 */
export async function trainedRun(folder: string): Promise<TrainedRun> {
  const own = join(folder, 'trainer_state.json');
  const checkpoint = existsSync(own) ? folder : (await listCheckpoints(folder)).at(-1)?.folder;
  if (checkpoint === undefined) throw new Error(`${folder} is neither a checkpoint nor a run's folder with checkpoints/`);
  const state = JSON.parse(await readFile(join(checkpoint, 'trainer_state.json'), 'utf8')) as TrainerState;
  const run = runOf(folder, state);
  const parent = state.notes.find((note) => note.startsWith(fineTunedFrom))?.slice(fineTunedFrom.length);
  return parent === undefined ? run : addRuns(await trainedRun(parent), run);
}
