/**
 * Process versus outcome supervision, end to end on the organism: the default PRM against an
 * outcome reward model trained with the same recipe (model, data, budget) on final-answer labels
 * only, both picking the best of N samples of the organism's policy.
 *
 *   pnpm --filter @reward-lens/model-default process-vs-outcome [--orm <folder>] [--orm-recipe <recipe>] [--problems 300] [--n 16] [--threads <n>]
 *
 * The ORM is trained into `.retrain/outcome` (and `.retrain/outcome-continued`, the recipe's second
 * stage) when `--orm` names no folder (resumable, as `retrain`).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import '@reward-lens/backend-tiny/register';
import { ProcessRM } from '@reward-lens/core';
import { bestOfNCurves, type BestOfNProblem } from '@reward-lens/eval';
import { createOrganismPolicy } from '@reward-lens/organism';
import { defaultModelFolder, loadDefaultPrm } from '../src/index.js';
import { defaultRecipe, splitItems } from './default-recipe.js';
import { sampleCandidates, type PolicySettings } from './policy-samples.js';
import { trainRecipe } from './train-recipe.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    orm: { type: 'string' },
    problems: { type: 'string' },
    n: { type: 'string' },
    error: { type: 'string' },
    rescue: { type: 'string' },
    threads: { type: 'string' },
    'orm-recipe': { type: 'string' },
  },
});
const threads = values.threads === undefined ? undefined : Number(values.threads);
const problems = Number(values.problems ?? 300);
const n = Number(values.n ?? 16);
const settings: PolicySettings = { errorProbability: Number(values.error ?? 0.15), rescueProbability: Number(values.rescue ?? 0.3) };

// The ORM goes through the recipe's stages as the PRM did (a finished run resumes at its end and trains nothing).
const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());
const ormFolder =
  values.orm ?? (await trainRecipe(defaultRecipe, 'outcome', join(packageRoot, '.retrain', 'outcome'), controller.signal, { stages: 0 }, threads)).folder;

const prm = await loadDefaultPrm({ backend: 'tiny', calibrated: false, ...(threads ? { threads } : {}) });
// Read as it was trained (its config.json's recipe), or, with --orm-recipe trl-likelihood, bounded by
// its own LM head's likelihood as the default PRM is: what the bound gives without process labels.
const orm = await ProcessRM.fromPretrained(ormFolder, {
  backend: 'tiny',
  ...(threads ? { threads } : {}),
  ...(values['orm-recipe'] ? { recipe: values['orm-recipe'] } : {}),
});
const policy = createOrganismPolicy(settings);
const items = splitItems(defaultRecipe, 'test', problems);
const pools: BestOfNProblem[] = [];
for (const [index, item] of items.entries()) {
  const candidates = sampleCandidates(policy, item.problem, n, 7000 + index);
  const inputs = candidates.map((candidate) => ({ problem: item.problem, steps: candidate.steps }));
  const processScores = (await prm.stepScores(inputs)).value.curves;
  const outcomeScores = (await orm.score(inputs)).value.values;
  pools.push({
    candidates: candidates.map((candidate, position) => ({
      stepScores: processScores[position]!,
      finalCorrect: candidate.finalCorrect,
      processCorrect: candidate.processCorrect,
      outcomeScore: outcomeScores[position]!,
    })),
  });
}
const curves = bestOfNCurves(pools, { ns: [1, 2, 4, 8, 16].filter((size) => size <= n), resamples: 32, outcomeRule: 'ORM', seed: 0 });

const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
console.log(
  `${problems} organism problems (test seed 1002), ${n} samples each from the organism policy (error probability ${settings.errorProbability}, rescue ${settings.rescueProbability});`,
);
console.log(`PRM: ${defaultModelFolder} (uncalibrated scores, read ${prm.recipe.name}); ORM: ${ormFolder} (read ${orm.recipe.name}); 32 resamples per N\n`);
console.log('| rule | N | final-answer accuracy | process correct | right answer, flawed process | mean steps |');
console.log('|---|---|---|---|---|---|');
for (const point of curves.points) {
  const label = point.rule === 'ORM' ? 'ORM (outcome score)' : `PRM ${point.rule}`;
  console.log(
    `| ${label} | ${point.n} | ${percent(point.finalAccuracy)} | ${percent(point.processCorrect)} | ${percent(point.rightAnswerFlawedProcess)} | ${point.meanSteps.toFixed(2)} |`,
  );
}
console.log(`\nrandom pick: final-answer accuracy ${percent(curves.random.finalAccuracy)}, process correct ${percent(curves.random.processCorrect)}`);
await prm.dispose();
await orm.dispose();
