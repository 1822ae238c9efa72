// The shipped default PRM held at each weight dtype backend-tiny offers, measured as its figures
// were (the organism test split at the shipped threshold, the matched pairs), side by side, with
// each quantized dtype's difference from fp32 and its largest step-score deviation.
//
//   pnpm --filter @reward-lens/model-default evaluate-dtypes [-- --items 1000 --pairs 500]
import '@reward-lens/backend-tiny/register';
import { parseArgs } from 'node:util';
import { fixedThreshold } from '@reward-lens/eval';
import type { WeightDtypeV1 } from '@reward-lens/core';
import { defaultModelFigures, loadDefaultPrm } from '../src/index.js';
import { defaultRecipe, splitItems } from './default-recipe.js';
import { evaluateOrganism, matchedPairs } from './evaluate-default.js';

const { values } = parseArgs({ options: { items: { type: 'string', default: '1000' }, pairs: { type: 'string', default: '500' } } });
const items = splitItems(defaultRecipe, 'test', Number(values.items));
const pairCount = Number(values.pairs);
const threshold = fixedThreshold(defaultModelFigures.threshold.value, `chosen on ${defaultModelFigures.threshold.chosenOn}`);

interface Row {
  dtype: WeightDtypeV1;
  f1: number;
  pairs: number;
  curves: number[][];
  seconds: number;
}

const rows: Row[] = [];
for (const dtype of ['fp32', 'bf16', 'fp16', 'q8', 'q4'] as const) {
  const started = performance.now();
  await using prm = await loadDefaultPrm({ backend: 'tiny', dtype });
  if (prm.source.weightDtype !== dtype) throw new Error(`asked for ${dtype}, the backend holds ${prm.source.weightDtype}`);
  const evaluation = await evaluateOrganism(prm, items, threshold);
  const pairs = await matchedPairs(prm, defaultRecipe, pairCount);
  const curves = (await prm.stepScores(items.slice(0, 200).map((item) => ({ problem: item.problem, steps: [...item.steps] })))).value.curves.map((curve) =>
    Array.from(curve ?? [], Number),
  );
  rows.push({ dtype, f1: evaluation.metrics.f1, pairs: pairs.all.index, curves, seconds: (performance.now() - started) / 1000 });
}

const fp32 = rows[0]!;
// Steps scored in both (a step past the model's positions has no score in either).
const deviation = (row: Row) =>
  Math.max(...row.curves.flatMap((curve, index) => curve.map((score, step) => Math.abs(score - fp32.curves[index]![step]!)).filter(Number.isFinite)));
console.log(
  `default PRM by weight dtype (backend-tiny): organism test ${items.length} items at threshold ${threshold.value.toFixed(4)}, ${pairCount} matched pairs`,
);
console.log('dtype  organism F1  (Δ fp32)   matched pairs  (Δ fp32)   max |Δ step score| (200 items)  seconds');
for (const row of rows) {
  const delta = (value: number, base: number) => (row === fp32 ? '       ' : `${value - base >= 0 ? '+' : ''}${(value - base).toFixed(4)}`);
  console.log(
    `${row.dtype.padEnd(5)}  ${row.f1.toFixed(4)}       ${delta(row.f1, fp32.f1)}    ${row.pairs.toFixed(4)}         ${delta(row.pairs, fp32.pairs)}    ${row === fp32 ? '-' : deviation(row).toFixed(4)}                              ${row.seconds.toFixed(1)}`,
  );
}
