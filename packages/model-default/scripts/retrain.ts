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
 *   --shipped         skip training: calibrate, measure and package the weights in `--out` again
 *                     (their training is the one `figures.json` records), e.g. after the reading
 *                     recipe changed
 *   --threads <n>     threads to train and score on (default: every core)
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import '@reward-lens/backend-tiny/register';
import { ProcessRM } from '@reward-lens/core';
import { evaluateProcessBench, itemFingerprint, processBenchFromArray, type VerificationIndex } from '@reward-lens/eval';
import { sharedDataPath } from '@reward-lens/test-data';
import type { DefaultModelFigures, MatchedPairsFigures } from '../src/default-model-figures.js';
import { defaultRecipe, splitItems, trainingRecords, type DefaultRecipe } from './default-recipe.js';
import { domainCountRecords, trainingTokenDomain } from './domain-tokens.js';
import { calibrate, matchedPairs } from './evaluate-default.js';
import { evaluateByKind } from './kind-breakdown.js';
import { defaultModelCard } from './model-card.js';
import { trainedRun, trainRecipe, type TrainedRun } from './train-recipe.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    work: { type: 'string' },
    out: { type: 'string' },
    steps: { type: 'string' },
    trained: { type: 'string' },
    shipped: { type: 'boolean' },
    threads: { type: 'string' },
  },
});
const recipe: DefaultRecipe = values.steps !== undefined ? { ...defaultRecipe, steps: Number(values.steps), continuations: [] } : defaultRecipe;
const work = values.work ?? join(packageRoot, '.retrain');
const out = values.out ?? join(packageRoot, 'model');
const threads = values.threads === undefined ? {} : { threads: Number(values.threads) };

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());

async function shippedRun(): Promise<TrainedRun> {
  const figures = JSON.parse(await readFile(join(out, 'figures.json'), 'utf8')) as DefaultModelFigures;
  return {
    folder: out,
    step: figures.trainingSteps,
    tokens: figures.trainingTokens,
    seconds: figures.trainingSeconds,
    records: figures.trainingRecords,
    heldOutLoss: figures.heldOutLoss,
  };
}

const run =
  values.shipped === true
    ? await shippedRun()
    : values.trained !== undefined
      ? await trainedRun(values.trained)
      : await trainRecipe(recipe, 'process', join(work, 'train'), controller.signal, { stages: 0 }, threads.threads);
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

// Read as the shipped model is: the reading recipe, whatever the trainer's config.json says.
const reading = { backend: 'tiny', recipe: recipe.readingRecipe, ...threads } as const;
const raw = await ProcessRM.fromPretrained(trained, reading);
const calibrated = await calibrate(raw, calibrationItems, 'organism calibration split (seed 1001, 400 items)');
const { threshold } = calibrated;
// Shipped with the calibration: the token ids of the training text, so a record outside them is noted and not CALIBRATED.
const calibration = { ...calibrated.calibration, domainCheck: await trainingTokenDomain(raw, recipe, domainCountRecords) };
const prm = raw.withCalibration(calibration);
const test = await evaluateByKind(prm, testItems, threshold);
const pairs = await matchedPairs(prm, recipe, 500);
const gsm8k = JSON.parse(await readFile(sharedDataPath('processbench/gsm8k.json'), 'utf8')) as unknown[];
// Real solutions spell most words in characters, so many are longer than the model's 512 positions: their ends are kept.
const truncated = await ProcessRM.fromPretrained(trained, { ...reading, truncation: 'left', calibration });
const real = (await evaluateProcessBench(truncated, processBenchFromArray(gsm8k), { threshold })).evaluation;

const pairFigures = (index: VerificationIndex): MatchedPairsFigures => ({
  pairs: index.pairs,
  index: index.index,
  lower: index.lower,
  ties: index.ties,
  interval: index.interval,
});
const { evaluation } = test;
const figures: DefaultModelFigures = {
  trainingSteps: run.step,
  trainingTokens: run.tokens,
  trainingSeconds: Math.round(run.seconds),
  trainingRecords: run.records,
  overlapWithEvaluation: overlap,
  heldOutLoss: run.heldOutLoss,
  readingRecipe: recipe.readingRecipe,
  threshold: { value: threshold.value, chosenOn: 'organism calibration split (seed 1001, 400 items)' },
  calibration: { method: calibration.map.method, eceBefore: calibration.diagnostics!.eceBefore, eceAfter: calibration.diagnostics!.eceAfter },
  organismTest: { items: evaluation.items, ...evaluation.metrics, auroc: evaluation.auroc.auroc },
  organismTestByKind: Object.fromEntries(
    Object.entries(test.byKind)
      .filter(([, kind]) => kind.items > 0)
      .map(([name, kind]) => [
        name,
        { items: kind.items, exact: kind.exact, exactRate: kind.exactRate, early: kind.early, late: kind.late, missed: kind.missed },
      ]),
  ),
  matchedPairs: pairFigures(pairs.all),
  matchedPairsByKind: Object.fromEntries(Object.entries(pairs.byKind).map(([kind, index]) => [kind, pairFigures(index)])),
  processBenchGsm8k: { items: real.items, ...real.metrics, auroc: real.auroc.auroc },
};

await mkdir(out, { recursive: true });
if (resolve(trained) !== resolve(out)) {
  for (const file of ['model.safetensors', 'tokenizer.json', 'tokenizer_config.json']) await copyFile(join(trained, file), join(out, file));
}
// The config names the reading recipe, so that `fromPretrained` (and so every tool) reads the model as it was measured.
const config = JSON.parse(await readFile(join(trained, 'config.json'), 'utf8')) as Record<string, unknown> & { reward_lens?: Record<string, unknown> };
config.reward_lens = { ...config.reward_lens, recipe: recipe.readingRecipe };
await writeFile(join(out, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
await writeFile(join(out, 'calibration.json'), `${JSON.stringify(calibration, null, 2)}\n`);
await writeFile(join(out, 'figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
await writeFile(join(out, 'README.md'), defaultModelCard(recipe, figures));
console.log(JSON.stringify(figures, null, 2));
await Promise.all([prm.dispose(), truncated.dispose()]);
