/**
 * Monte-Carlo step labels on the organism, where the truth is known: organism solutions labelled
 * with rollouts of the organism's policy (hard and soft) against the verifier's truth and the
 * closed form the policy gives, as N grows; then a PRM trained on MC labels and one on the true
 * labels with the same small budget, both scored on ProcessBench items from unseen seeds.
 * Deterministic by seed.
 *
 *   pnpm --filter @reward-lens/search experiment:labels [--items 300 --rollouts 1,2,4,8,16,32,64 --train-steps 800 --out <folder>]
 */
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import '@reward-lens/backend-tiny/register';
import { ProcessRM } from '@reward-lens/core';
import { chooseThreshold, evaluateProcessBench, processBenchRecord, scoreCalibrationSplit } from '@reward-lens/eval';
import { createOrganism, createOrganismPolicy, toProcessBench, type OrganismItem } from '@reward-lens/organism';
import { generatorPolicy, stepLinesPrompt } from '@reward-lens/search';
import { experimentArgs } from './lib/experiment-args.js';
import { continuable, labelQuality, labelSteps, trueStepLabels, type LabelQuality } from './lib/label-quality.js';
import { count, markdownTable, percent } from './lib/markdown-table.js';
import { labelledRecord, processBenchRecords, trainOnRecords, type TrainBudget } from './lib/train-comparison.js';

export interface LabelExperimentOptions {
  /** Seeds everything: the quality items (seed), training items (seed + 1), calibration (seed + 2) and test items (seed + 3), the rollouts and the training. */
  seed: number;
  items: number;
  rollouts: readonly number[];
  errorProbability: number;
  rescueProbability: number;
  steps: readonly [number, number];
  maxNumber: number;
  /** Leave out to skip training. */
  train?: { items: number; rollouts: number; heldOut: number; budget: TrainBudget; out: string };
  onProgress?: (message: string) => void;
}

export const defaultLabelExperiment: LabelExperimentOptions = {
  seed: 1,
  items: 300,
  rollouts: [1, 2, 4, 8, 16, 32, 64],
  errorProbability: 0.2,
  rescueProbability: 0.1,
  steps: [3, 5],
  maxNumber: 20,
  train: {
    // Enough solutions that 800 steps see each about three times (2,000 were memorised, held-out loss rising).
    items: 12_000,
    rollouts: 8,
    heldOut: 300,
    budget: { steps: 800, batchTokens: 4096, learningRate: 3e-3, seed: 0, hiddenSize: 64, numLayers: 2, numHeads: 4, intermediateSize: 176 },
    out: join(tmpdir(), 'reward-lens-organism-labels'),
  },
};

/** One trained PRM, scored on the test items. */
export interface TrainedModel {
  labels: 'Monte-Carlo' | 'true';
  folder: string;
  seconds: number;
  tokens: number;
  f1AtHalf: number;
  f1: number;
  threshold: number;
  errorAccuracy: number;
  correctAccuracy: number;
  auroc: number;
}

export interface LabelExperimentResult {
  quality: LabelQuality[];
  /** Items left out because the policy cannot continue one of their prefixes. */
  leftOut: number;
  training?: { items: number; leftOut: number; labelNoise: LabelQuality; models: TrainedModel[] };
  markdown: string;
}

function organismItems(seed: number, count: number, options: LabelExperimentOptions): OrganismItem[] {
  return createOrganism({ seed, steps: [...options.steps], maxNumber: options.maxNumber }).items(count);
}

async function scoreModel(
  labels: TrainedModel['labels'],
  folder: string,
  calibration: readonly OrganismItem[],
  test: readonly OrganismItem[],
  trained: { seconds: number; tokens: number; f1AtHalf: number },
): Promise<TrainedModel> {
  const prm = await ProcessRM.fromPretrained(folder, { backend: 'tiny' });
  try {
    const records = (items: readonly OrganismItem[], split: string) =>
      items.map((item, index) => processBenchRecord(toProcessBench(item), `${split} ${index}`));
    const scored = await scoreCalibrationSplit(prm, records(calibration, 'calibration'));
    const threshold = chooseThreshold(scored.items, { name: 'the calibration items' });
    const run = await evaluateProcessBench(prm, records(test, 'test'), { threshold });
    const { metrics } = run.evaluation;
    return {
      labels,
      folder,
      ...trained,
      f1: metrics.f1,
      threshold: threshold.value,
      errorAccuracy: metrics.errorAccuracy,
      correctAccuracy: metrics.correctAccuracy,
      auroc: run.evaluation.auroc.auroc,
    };
  } finally {
    await prm.dispose();
  }
}

export async function runLabelExperiment(options: LabelExperimentOptions): Promise<LabelExperimentResult> {
  const organism = createOrganismPolicy({ errorProbability: options.errorProbability, rescueProbability: options.rescueProbability });
  const policyName = `organism(p=${organism.errorProbability}, rho=${organism.rescueProbability})`;
  const policy = generatorPolicy(organism, { name: policyName, prompt: stepLinesPrompt });
  const drawn = organismItems(options.seed, options.items, options);
  const items = drawn.filter((item) => continuable(organism, item));

  const quality: LabelQuality[] = [];
  for (const rollouts of options.rollouts) {
    quality.push(labelQuality((await labelSteps(policy, organism, items, rollouts, options.seed)).flat(), rollouts));
    options.onProgress?.(`labels with N = ${rollouts}`);
  }
  const pair = (measured: number, expected: number) => `${percent(measured)} (${percent(expected)})`;
  const sections = [
    `${items.length} organism solutions (seed ${options.seed}, ${options.steps[0]}–${options.steps[1]} steps, numbers up to ${options.maxNumber}; ${drawn.length - items.length} of ${drawn.length} left out: the policy cannot continue one of their prefixes), ${quality[0]?.steps ?? 0} steps of which ${quality[0]?.wrongSteps ?? 0} wrong (the solution up to them has an error); MC labels by rollouts of ${policyName}, measured (closed form: 1 − (1 − P)^N per step, P the policy's success probability):`,
    '',
    markdownTable(
      ['N', 'hard labels right', 'false "correct" (of wrong steps)', 'false "wrong" (of correct steps)', 'soft labels: RMS error against P'],
      quality.map((row) => [
        String(row.rollouts),
        pair(row.accuracy, row.expectedAccuracy),
        pair(row.falseCorrect, row.expectedFalseCorrect),
        pair(row.falseWrong, row.expectedFalseWrong),
        `${row.softRmse.toFixed(3)} (${row.expectedSoftRmse.toFixed(3)})`,
      ]),
    ),
  ];
  const result: LabelExperimentResult = { quality, leftOut: drawn.length - items.length, markdown: '' };

  if (options.train) {
    const { train } = options;
    const trainDrawn = organismItems(options.seed + 1, train.items, options);
    const trainItems = trainDrawn.filter((item) => continuable(organism, item));
    const labelled = await labelSteps(policy, organism, trainItems, train.rollouts, options.seed + 1);
    options.onProgress?.(`training labels with N = ${train.rollouts}`);
    const mcRecords = trainItems.map((item, index) =>
      labelledRecord(
        item,
        labelled[index]!.map((step) => step.value > 0),
      ),
    );
    const trueRecords = trainItems.map((item) => labelledRecord(item, trueStepLabels(item)));
    const calibration = organismItems(options.seed + 2, train.heldOut, options);
    const test = organismItems(options.seed + 3, train.heldOut, options);
    const models: TrainedModel[] = [];
    await mkdir(train.out, { recursive: true });
    for (const [labels, records] of [
      ['Monte-Carlo', mcRecords],
      ['true', trueRecords],
    ] as const) {
      const folder = join(train.out, labels === 'true' ? 'prm-true-labels' : 'prm-mc-labels');
      const trained = await trainOnRecords(
        records,
        processBenchRecords(test),
        folder,
        train.budget,
        `A PRM trained on ${labels} labels of organism solutions`,
        (event) => {
          if (event.kind === 'step' && event.step % 10 === 0) options.onProgress?.(`training on ${labels} labels: step ${event.step} of ${train.budget.steps}`);
        },
      );
      models.push(
        await scoreModel(labels, trained.folder, calibration, test, {
          seconds: trained.state.trainingSeconds,
          tokens: trained.state.tokensSeen,
          f1AtHalf: trained.heldOut?.f1 ?? Number.NaN,
        }),
      );
    }
    const labelNoise = labelQuality(labelled.flat(), train.rollouts);
    result.training = { items: trainItems.length, leftOut: trainDrawn.length - trainItems.length, labelNoise, models };
    const { budget } = train;
    sections.push(
      '',
      `Two PRMs trained from scratch with the same budget (Llama, hidden ${budget.hiddenSize}, ${budget.numLayers} layers, the organism tokenizer, trl-token-classification; ${budget.steps} steps of ${budget.batchTokens} tokens, learning rate ${budget.learningRate}, seed ${budget.seed}) on the same ${trainItems.length} solutions (seed ${options.seed + 1}): one on hard MC labels with N = ${train.rollouts} (${percent(labelNoise.falseCorrect)} of wrong steps labelled correct, ${percent(labelNoise.falseWrong)} of correct steps labelled wrong), one on the verifier's labels. ProcessBench on ${test.length} organism items of seed ${options.seed + 3}, the threshold chosen on ${calibration.length} items of seed ${options.seed + 2}:`,
      '',
      markdownTable(
        ['trained on', 'F1 (threshold 0.5)', 'F1 (chosen threshold)', 'threshold', 'erroneous found', 'correct kept', 'step AUROC', 'training'],
        models.map((model) => [
          `${model.labels} labels`,
          model.f1AtHalf.toFixed(3),
          model.f1.toFixed(3),
          model.threshold.toFixed(3),
          percent(model.errorAccuracy),
          percent(model.correctAccuracy),
          model.auroc.toFixed(3),
          `${count(model.tokens)} tokens, ${model.seconds.toFixed(0)} s`,
        ]),
      ),
    );
  }
  result.markdown = sections.join('\n');
  return result;
}

async function main(argv: readonly string[]): Promise<void> {
  const args = experimentArgs(argv, [
    'seed',
    'items',
    'rollouts',
    'error',
    'rescue',
    'steps',
    'max-number',
    'train-items',
    'train-rollouts',
    'held-out',
    'train-steps',
    'batch-tokens',
    'lr',
    'hidden',
    'layers',
    'out',
    'skip-training',
  ]);
  const fallback = defaultLabelExperiment;
  const train = fallback.train!;
  const options: LabelExperimentOptions = {
    seed: args.number('seed', fallback.seed),
    items: args.number('items', fallback.items),
    rollouts: args.list('rollouts', fallback.rollouts),
    errorProbability: args.number('error', fallback.errorProbability),
    rescueProbability: args.number('rescue', fallback.rescueProbability),
    steps: args.range('steps', fallback.steps),
    maxNumber: args.number('max-number', fallback.maxNumber),
    ...(args.text('skip-training') === 'yes'
      ? {}
      : {
          train: {
            items: args.number('train-items', train.items),
            rollouts: args.number('train-rollouts', train.rollouts),
            heldOut: args.number('held-out', train.heldOut),
            budget: {
              ...train.budget,
              steps: args.number('train-steps', train.budget.steps),
              batchTokens: args.number('batch-tokens', train.budget.batchTokens),
              learningRate: args.number('lr', train.budget.learningRate),
              hiddenSize: args.number('hidden', train.budget.hiddenSize),
              numLayers: args.number('layers', train.budget.numLayers),
            },
            out: args.text('out') ?? train.out,
          },
        }),
    onProgress: (message) => process.stderr.write(`\r${message}${' '.repeat(20)}`),
  };
  const started = performance.now();
  const result = await runLabelExperiment(options);
  process.stderr.write(`\rdone in ${((performance.now() - started) / 1000).toFixed(0)} s${' '.repeat(40)}\n`);
  if (options.train) process.stderr.write(`models: ${result.training!.models.map((model) => model.folder).join(', ')}\n`);
  console.log(result.markdown);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
