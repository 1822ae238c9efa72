import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { arms } from './arms.js';
import { ablationBudget } from './budget.js';
import type { KindFigures } from '../kind-breakdown.js';
import type { ArmFigures } from './measure-arm.js';

const testKinds = ['wrong-result', 'wrong-copy', 'compensating', 'wrong-operation', 'dropped-step', 'unneeded-step'] as const;
const pairKinds = ['wrong-result', 'wrong-copy', 'wrong-operation', 'dropped-step', 'unneeded-step'] as const;
const probeKinds = ['wrong-result', 'wrong-copy', 'compensating'] as const;
const short: Record<string, string> = {
  'wrong-result': 'WR',
  'wrong-copy': 'WC',
  compensating: 'comp',
  'wrong-operation': 'WO',
  'dropped-step': 'drop',
  'unneeded-step': 'unn',
};

const percent = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '–' : (100 * value).toFixed(1));

const probeCell = (figures: KindFigures | undefined) => (figures === undefined ? '–' : `${percent(figures.exactRate)} (${figures.items})`);

function row(figures: ArmFigures): string {
  const cells = [
    figures.arm,
    `${(figures.parameters / 1e6).toFixed(2)}M`,
    `${(figures.training.tokens / 1e6).toFixed(2)}M`,
    Math.round(figures.training.wallSeconds).toString(),
    Math.round(figures.training.tokensPerSecond).toString(),
    figures.training.heldOutLoss.toFixed(4),
    figures.test.f1.toFixed(3),
    percent(figures.test.correctAccuracy),
    ...testKinds.map((kind) => percent(figures.test.byKind[kind]?.exactRate)),
    percent(figures.pairs.all.index),
    ...pairKinds.map((kind) => percent(figures.pairs.byKind[kind]?.index)),
  ];
  return `| ${cells.join(' | ')} |`;
}

/** Every arm's results (results/*.json), in the arms' order, then any others by name. */
export async function readResults(folder: string): Promise<ArmFigures[]> {
  const files = (await readdir(folder)).filter((file) => file.endsWith('.json'));
  const all = await Promise.all(files.map(async (file) => JSON.parse(await readFile(join(folder, file), 'utf8')) as ArmFigures));
  const order = (figures: ArmFigures) => {
    const index = arms.findIndex((arm) => arm.name === figures.arm);
    return index === -1 ? arms.length : index;
  };
  return all.sort((left, right) => order(left) - order(right) || left.arm.localeCompare(right.arm));
}

/** Rewrites results/README.md from the arms' JSON files. */
export async function writeResultsTable(folder: string): Promise<void> {
  const results = await readResults(folder);
  const header = [
    'arm',
    'params',
    'tokens',
    'wall s',
    'tok/s',
    'held-out loss',
    'F1',
    'correct passed %',
    ...testKinds.map((kind) => `exact ${short[kind]} %`),
    'pairs %',
    ...pairKinds.map((kind) => `pairs ${short[kind]} %`),
  ];
  const changes = results.map((figures) => `- **${figures.arm}**: ${figures.change}`);
  const text = [
    '# Ablations of the default PRM recipe',
    '',
    `Every arm trains from scratch (seed 0 unless its line below says otherwise) for ${ablationBudget.steps} optimizer steps of ${ablationBudget.batchTokens} packed tokens (the tokens column is the count each read), with the recipe's curriculum scaled to ${ablationBudget.curriculumItems} items, then is measured on held-out seeds: Platt calibration and the threshold fitted on the calibration split (seed 1001, 400 items); ProcessBench F1, correct passed and the exact first error found per error kind on the test split (seed 1002, 1,000 items); matched pairs (seed 1003, 500 pairs: the flawed step scores below its clean twin). Held-out loss: seed 1000, 300 items, step labels. Wall seconds: the training sessions' wall clock (held-out evaluations and checkpoints included, measurement not); tok/s: tokens over the seconds in optimizer steps. One training process at a time, single-threaded, under nice 19 on a 2-core machine shared with other work, so speeds are indicative. Rows whose name ends in \`+classifier\` or \`+likelihood\` measure a trained model (the shipped one, or an arm's) read with \`trl-token-classification\` (the classifier alone) or \`trl-likelihood\` (bounded by the model's likelihood of the solution), with the same measurement: \`scripts/ablations/run-reading.ts\`.`,
    '',
    `Kinds: ${Object.entries(short)
      .map(([kind, abbreviation]) => `${abbreviation} = ${kind}`)
      .join(', ')}. Made by \`scripts/ablations/run-arm.ts\` (one arm) and \`run-arms.sh\` (all, in order).`,
    '',
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, index) => (index === 0 ? '---' : '---:')).join(' | ')} |`,
    ...results.map(row),
    '',
    '## Arithmetic probe',
    '',
    "Exact first error found on 900 erroneous items of the arithmetic kinds only (seed 1004, about 300 per kind: a narrower estimate than the test split's ~100 per kind), at the threshold each arm chose on the calibration split.",
    '',
    `| arm | ${probeKinds.map((kind) => `exact ${short[kind]} % (n)`).join(' | ')} |`,
    `| --- | ${probeKinds.map(() => '---:').join(' | ')} |`,
    ...results.map((figures) => `| ${figures.arm} | ${probeKinds.map((kind) => probeCell(figures.arithmeticProbe?.[kind])).join(' | ')} |`),
    '',
    '## Threshold-free',
    '',
    "AUROC of the test split's correct steps against each kind's first erroneous steps (1 = every first error scores below every correct step); the exact rates above also depend on the one threshold each arm chose.",
    '',
    `| arm | AUROC all | ${testKinds.map((kind) => `AUROC ${short[kind]}`).join(' | ')} |`,
    `| --- | ---: | ${testKinds.map(() => '---:').join(' | ')} |`,
    ...results.map(
      (figures) =>
        `| ${figures.arm} | ${figures.test.auroc.toFixed(3)} | ${testKinds.map((kind) => figures.test.byKind[kind]?.auroc?.toFixed(3) ?? '–').join(' | ')} |`,
    ),
    '',
    '## Arms',
    '',
    ...changes,
    '',
  ].join('\n');
  await writeFile(join(folder, 'README.md'), text);
}
