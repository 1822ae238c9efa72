/**
 * Measures a trained model read with another recipe, with `run-arm.ts`'s measurement, as a row of
 * the results table: the same weights read with the classifier alone and bounded by the model's
 * likelihood of the solution (`trl-likelihood`).
 *
 *   pnpm exec tsx --conditions=@reward-lens/source scripts/ablations/run-reading.ts --name shipped+likelihood --folder model --recipe trl-likelihood [--arm baseline]
 *
 * `--folder` is a model folder (the shipped one, or an arm's `<runs>/<arm>/train`); with `--arm`,
 * that arm's training facts come from its folder's last checkpoint, else from `figures.json` there.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { listCheckpoints, type TrainerState } from '@reward-lens/train';
import type { DefaultModelFigures } from '../../src/default-model-figures.js';
import { defaultRecipe } from '../default-recipe.js';
import { armNamed, type Arm } from './arms.js';
import { measureArm } from './measure-arm.js';
import { writeResultsTable } from './results-table.js';

const resultsFolder = fileURLToPath(new URL('results', import.meta.url));
const { values } = parseArgs({ options: { name: { type: 'string' }, folder: { type: 'string' }, recipe: { type: 'string' }, arm: { type: 'string' } } });
if (values.name === undefined || values.folder === undefined || values.recipe === undefined) throw new Error('--name, --folder and --recipe are required');
const base = values.arm === undefined ? undefined : armNamed(values.arm);
let state: TrainerState;
const checkpoint = (await listCheckpoints(values.folder)).at(-1);
if (checkpoint !== undefined) {
  state = JSON.parse(await readFile(join(checkpoint.folder, 'trainer_state.json'), 'utf8')) as TrainerState;
} else {
  const figuresFile = join(values.folder, 'figures.json');
  if (!existsSync(figuresFile)) throw new Error(`${values.folder} has neither checkpoints nor figures.json to say how it was trained`);
  const figures = JSON.parse(await readFile(figuresFile, 'utf8')) as DefaultModelFigures;
  state = {
    step: figures.trainingSteps,
    tokensSeen: figures.trainingTokens,
    cursor: figures.trainingRecords,
    trainingSeconds: figures.trainingSeconds,
    evaluations: [{ step: figures.trainingSteps, loss: figures.heldOutLoss, f1: Number.NaN }],
  } as unknown as TrainerState;
}
const arm: Arm = {
  name: values.name,
  change: `${base ? `arm ${base.name}` : 'the shipped model'} read with ${values.recipe}`,
  recipe: base?.recipe ?? defaultRecipe,
  mix: base?.mix ?? 'default',
  reading: values.recipe,
};
const figures = await measureArm(arm, values.folder, state, 0);
await mkdir(resultsFolder, { recursive: true });
await writeFile(join(resultsFolder, `${arm.name}.json`), `${JSON.stringify(figures, null, 2)}\n`);
await writeResultsTable(resultsFolder);
console.log(`${arm.name}: F1 ${figures.test.f1.toFixed(3)}, pairs ${(100 * figures.pairs.all.index).toFixed(1)}%`);
