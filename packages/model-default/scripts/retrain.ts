/**
 * Retrains the default PRM from seed 0 and writes it into `model/`, with its calibration and its
 * measured figures: `pnpm --filter @reward-lens/model-default retrain`. Resumable: a stopped run
 * (Ctrl-C, a kill) continues from its last checkpoint in `--work` to the same weights.
 *
 *   --work <folder>   checkpoints and the trained folder (default: .retrain/ in this package)
 *   --out <folder>    where the model folder is written (default: model/ in this package)
 *   --steps <n>       fewer optimizer steps and no continuation stage, for a quick trial (not the shipped model)
 *   --trained <folder>  skip training: calibrate, measure and package this trained folder (its
 *                     trainer_state.json names the stage it was fine-tuned from, if any)
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import '@reward-lens/backend-tiny/register';
import { ProcessRM } from '@reward-lens/core';
import { evaluateProcessBench, itemFingerprint, processBenchFromArray, type VerificationIndex } from '@reward-lens/eval';
import { sharedDataPath } from '@reward-lens/test-data';
import { defaultRecipe, splitItems, trainingRecords, type DefaultRecipe } from './default-recipe.js';
import { calibrate, evaluateOrganism, matchedPairs } from './evaluate-default.js';
import type { DefaultModelFigures, MatchedPairsFigures } from '../src/default-model-figures.js';
import { defaultModelCard } from './model-card.js';
import { trainedRun, trainRecipe } from './train-recipe.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { work: { type: 'string' }, out: { type: 'string' }, steps: { type: 'string' }, trained: { type: 'string' } } });
const recipe: DefaultRecipe = values.steps !== undefined ? { ...defaultRecipe, steps: Number(values.steps), continuation: undefined } : defaultRecipe;
const work = values.work ?? join(packageRoot, '.retrain');
const out = values.out ?? join(packageRoot, 'model');

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());

const run = values.trained !== undefined ? await trainedRun(values.trained) : await trainRecipe(recipe, 'process', join(work, 'train'), controller.signal);
const trained = run.folder;

// No solution of the calibration or test split is one the model trained on.
const calibrationItems = splitItems(recipe, 'calibration', 400);
const testItems = splitItems(recipe, 'test', 1000);
const evaluated = new Set([...calibrationItems, ...testItems].map((item) => itemFingerprint(item.problem, item.steps)));
let overlap = 0;
const records = trainingRecords(recipe);
for (let index = 0; index < run.records; index++) {
  const record = records.next().value!;
  if (evaluated.has(itemFingerprint(record.problem, record.steps))) overlap++;
}

const raw = await ProcessRM.fromPretrained(trained, { backend: 'tiny' });
const { calibration, threshold } = await calibrate(raw, calibrationItems, 'organism calibration split (seed 1001, 400 items)');
const prm = raw.withCalibration(calibration);
const test = await evaluateOrganism(prm, testItems, threshold);
const pairs = await matchedPairs(prm, recipe, 500);
const gsm8k = JSON.parse(await readFile(sharedDataPath('processbench/gsm8k.json'), 'utf8')) as unknown[];
// Real solutions spell most words in characters, so many are longer than the model's 512 positions: their ends are kept.
const truncated = await ProcessRM.fromPretrained(trained, { backend: 'tiny', truncation: 'left', calibration });
const real = (await evaluateProcessBench(truncated, processBenchFromArray(gsm8k), { threshold })).evaluation;

const pairFigures = (index: VerificationIndex): MatchedPairsFigures => ({
  pairs: index.pairs,
  index: index.index,
  lower: index.lower,
  ties: index.ties,
  interval: index.interval,
});
const figures: DefaultModelFigures = {
  trainingSteps: run.step,
  trainingTokens: run.tokens,
  trainingSeconds: Math.round(run.seconds),
  trainingRecords: run.records,
  overlapWithEvaluation: overlap,
  heldOutLoss: run.heldOutLoss,
  threshold: { value: threshold.value, chosenOn: 'organism calibration split (seed 1001, 400 items)' },
  calibration: { method: calibration.map.method, eceBefore: calibration.diagnostics!.eceBefore, eceAfter: calibration.diagnostics!.eceAfter },
  organismTest: { items: test.items, ...test.metrics, auroc: test.auroc.auroc },
  matchedPairs: pairFigures(pairs.all),
  matchedPairsByKind: Object.fromEntries(Object.entries(pairs.byKind).map(([kind, index]) => [kind, pairFigures(index)])),
  processBenchGsm8k: { items: real.items, ...real.metrics, auroc: real.auroc.auroc },
};

await mkdir(out, { recursive: true });
for (const file of ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']) await copyFile(join(trained, file), join(out, file));
await writeFile(join(out, 'calibration.json'), `${JSON.stringify(calibration, null, 2)}\n`);
await writeFile(join(out, 'figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
await writeFile(join(out, 'README.md'), defaultModelCard(recipe, figures));
console.log(JSON.stringify(figures, null, 2));
