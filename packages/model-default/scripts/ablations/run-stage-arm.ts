/**
 * A continuation-stage arm: one more stage of the recipe, fine-tuned from the shipped model
 * (`model/`, the recipe's first two stages) on the stream after the records those stages read,
 * optionally grown first, then measured as `run-arm.ts` measures an arm:
 *
 *   nice -n 19 pnpm exec tsx --conditions=@reward-lens/source scripts/ablations/run-stage-arm.ts --arm stage3-grow8 [--runs /work/ablate-runs] [--threads 1]
 *
 * Resumable: the same command continues a stopped run.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { organismDecoderConfig } from '@reward-lens/organism';
import type { TrainerState } from '@reward-lens/train';
import type { DefaultModelFigures } from '../../src/default-model-figures.js';
import { defaultRecipe, type ContinuationStage, type DefaultRecipe } from '../default-recipe.js';
import { stageFolder, trainedRun, trainRecipe, type TrainedRun } from '../train-recipe.js';
import type { Arm } from './arms.js';
import { measureArm } from './measure-arm.js';
import { writeResultsTable } from './results-table.js';
import { timed, wallSecondsOf } from './wall-clock.js';

const size = { hiddenSize: 128, numHeads: 4, intermediateSize: 384 };
const stageArms: Record<string, { change: string; stage: ContinuationStage }> = {
  'stage3-4layers': { change: 'stage 3 from the shipped model: 1,500 more steps, 4 layers', stage: { steps: 1500, learningRate: 1e-3, warmupSteps: 100 } },
  'stage3-grow8': {
    change: 'stage 3 from the shipped model: grown to 8 layers (identity blocks), 1,500 more steps',
    stage: { steps: 1500, learningRate: 1e-3, warmupSteps: 100, numLayers: 8 },
  },
};

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
const resultsFolder = fileURLToPath(new URL('results', import.meta.url));
const { values } = parseArgs({ options: { arm: { type: 'string' }, runs: { type: 'string', default: '/work/ablate-runs' }, threads: { type: 'string' } } });
const chosen = values.arm === undefined ? undefined : stageArms[values.arm];
if (chosen === undefined) throw new Error(`--arm must be one of ${Object.keys(stageArms).join(', ')}`);
const name = values.arm!;

// The shipped model is the recipe's first two stages: what they read is in its figures.
const shipped = JSON.parse(await readFile(join(packageRoot, 'model', 'figures.json'), 'utf8')) as DefaultModelFigures;
const start: TrainedRun = {
  folder: join(packageRoot, 'model'),
  step: shipped.trainingSteps,
  tokens: shipped.trainingTokens,
  seconds: shipped.trainingSeconds,
  records: shipped.trainingRecords,
  heldOutLoss: shipped.heldOutLoss,
};
const recipe: DefaultRecipe = {
  ...defaultRecipe,
  ...(chosen.stage.numLayers !== undefined ? { config: organismDecoderConfig({ ...size, numLayers: chosen.stage.numLayers }) } : {}),
  continuations: [...defaultRecipe.continuations, chosen.stage],
};
const runFolder = join(values.runs!, name);
await mkdir(runFolder, { recursive: true });
const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());

const base = join(runFolder, 'train');
const threads = values.threads === undefined ? undefined : Number(values.threads);
await timed(runFolder, () => trainRecipe(recipe, 'process', base, controller.signal, { stages: 2, run: start }, threads));
const folder = stageFolder(base, 2);
const run = await trainedRun(folder);
const checkpoint = JSON.parse(
  await readFile(join(folder, 'checkpoints', (await import('node:fs')).readdirSync(join(folder, 'checkpoints')).sort().at(-1)!, 'trainer_state.json'), 'utf8'),
) as TrainerState;
// The stream positions and totals of all three stages (the overlap check reads the stream from its start).
const state: TrainerState = { ...checkpoint, step: run.step, tokensSeen: run.tokens, cursor: run.records, trainingSeconds: run.seconds };
const arm: Arm = { name, change: chosen.change, recipe, mix: 'default' };
const figures = await measureArm(arm, folder, state, await wallSecondsOf(runFolder));
await mkdir(resultsFolder, { recursive: true });
await writeFile(join(resultsFolder, `${name}.json`), `${JSON.stringify(figures, null, 2)}\n`);
await writeResultsTable(resultsFolder);
console.log(`${name}: F1 ${figures.test.f1.toFixed(3)}, pairs ${(100 * figures.pairs.all.index).toFixed(1)}%`);
