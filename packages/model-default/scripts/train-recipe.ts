import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { organismTokenizerJson } from '@reward-lens/organism';
import { createProgressBar, listCheckpoints, streamSource, trainProcessRewardModel, type TrainerState } from '@reward-lens/train';
import { organismRecord, splitItems, trainingRecords, type DefaultRecipe, type Supervision } from './default-recipe.js';

/** What a training run left: its length, and how many records of the stream it read. */
export interface TrainedRun {
  step: number;
  tokens: number;
  seconds: number;
  records: number;
  heldOutLoss: number;
}

function runOf(state: TrainerState): TrainedRun {
  return {
    step: state.step,
    tokens: state.tokensSeen,
    seconds: state.trainingSeconds,
    records: state.cursor,
    heldOutLoss: state.evaluations.at(-1)?.loss ?? Number.NaN,
  };
}

/**
 * Trains the recipe's model into `folder` (resuming from its last checkpoint when there is one),
 * on process labels (the default PRM) or outcome labels (its outcome-supervised twin: same model,
 * data, and budget). Throws when stopped by `signal`; the same call continues the run.
 */
export async function trainRecipe(recipe: DefaultRecipe, supervision: Supervision, folder: string, signal?: AbortSignal): Promise<TrainedRun> {
  const { tokenizerJson, tokenizerConfig } = organismTokenizerJson();
  const heldOut = splitItems(recipe, 'heldOut', recipe.heldOutItems).map((item) => organismRecord(item, item.id));
  const labels = supervision === 'process' ? 'prefix step labels' : 'final-answer labels only (an outcome reward model)';
  const result = await trainProcessRewardModel({
    data: streamSource(
      () => trainingRecords(recipe, supervision),
      `organism word problems with ${labels}: ${recipe.curriculumItems} curriculum items (2-5 steps, numbers up to 20, seed ${recipe.seed + 500}), then the default organism (seed ${recipe.seed})`,
    ),
    heldOut,
    heldOutDescription: `${heldOut.length} organism items of seed 1000, with prefix step labels`,
    out: folder,
    init: { kind: 'scratch', config: recipe.config, tokenizerJson, tokenizerConfig },
    steps: recipe.steps,
    batchTokens: recipe.batchTokens,
    learningRate: recipe.learningRate,
    warmupSteps: recipe.warmupSteps,
    languageModelWeight: recipe.languageModelWeight,
    untilFirstError: false,
    seed: recipe.seed,
    evaluateEvery: 250,
    checkpointEvery: 100,
    resume: true,
    ...(signal ? { signal } : {}),
    title: supervision === 'process' ? 'reward-lens default PRM (organism)' : 'the default PRM recipe on outcome labels (an ORM)',
    onEvent: createProgressBar(process.stderr),
  });
  if (result.stopped !== 'completed') throw new Error(`stopped at step ${result.step} of ${recipe.steps}; the same command continues from ${result.folder}`);
  return runOf(result.state);
}

/** The run that trained a folder: a checkpoint (it holds trainer_state.json), or a run's folder (its last checkpoint's). */
export async function trainedRun(folder: string): Promise<TrainedRun> {
  const own = join(folder, 'trainer_state.json');
  const checkpoint = existsSync(own) ? folder : (await listCheckpoints(folder)).at(-1)?.folder;
  if (checkpoint === undefined) throw new Error(`${folder} is neither a checkpoint nor a run's folder with checkpoints/`);
  return runOf(JSON.parse(await readFile(join(checkpoint, 'trainer_state.json'), 'utf8')) as TrainerState);
}
