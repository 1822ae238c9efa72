/**
 * PRM-guided search on the organism, where the truth is known: beam search and DVTS against
 * best-of-N and majority vote at equal generation budgets, with the organism's policy, every
 * choice judged by the organism's verifier. Deterministic by seed.
 *
 *   pnpm --filter @reward-lens/search experiment:search [--problems 100 --prm default|verifier|<folder> --n 4,8,16]
 */
import { fileURLToPath } from 'node:url';
import { createOrganism, createOrganismPolicy } from '@reward-lens/organism';
import { generatorPolicy, stepLinesPrompt } from '@reward-lens/search';
import { compareOnProblem, summarize, type StrategyOutcome, type StrategySummary } from './lib/compare-strategies.js';
import { experimentArgs } from './lib/experiment-args.js';
import { loadExperimentPrm } from './lib/experiment-prm.js';
import { count, markdownTable, percent } from './lib/markdown-table.js';

export interface SearchExperimentOptions {
  problems: number;
  /** Seeds the organism's problems; the policy's sampling is seeded by `seed` + 1 per problem. */
  seed: number;
  /** `default`, `verifier` or a model folder (`loadExperimentPrm`). */
  prm: string;
  /** Generation budgets n. */
  budgets: readonly number[];
  beamWidth: number;
  maxSteps: number;
  errorProbability: number;
  rescueProbability: number;
  steps: readonly [number, number];
  maxNumber: number;
  /** How partial solutions are ranked and finished ones picked: an aggregator of the step scores (`last`, `min`, ...). */
  pickBy: string;
  onProgress?: (message: string) => void;
}

export const defaultSearchExperiment: SearchExperimentOptions = {
  problems: 100,
  seed: 0,
  prm: 'default',
  budgets: [4, 8, 16],
  beamWidth: 4,
  maxSteps: 12,
  errorProbability: 0.2,
  rescueProbability: 0.1,
  // The organism the labels experiment trains its PRMs on, so that one of them can be the PRM here.
  steps: [3, 5],
  maxNumber: 20,
  pickBy: 'last',
};

export interface SearchExperimentResult {
  prmDescription: string;
  policyName: string;
  /** The closed form for one sample: the mean over problems of P(right answer) from the empty prefix. */
  oneSampleExact: number;
  perBudget: { n: number; summaries: StrategySummary[] }[];
  markdown: string;
}

export async function runSearchExperiment(options: SearchExperimentOptions): Promise<SearchExperimentResult> {
  const items = createOrganism({ seed: options.seed, steps: [...options.steps], maxNumber: options.maxNumber }).items(options.problems);
  const organism = createOrganismPolicy({ errorProbability: options.errorProbability, rescueProbability: options.rescueProbability });
  const policyName = `organism(p=${organism.errorProbability}, rho=${organism.rescueProbability})`;
  const policy = generatorPolicy(organism, { name: policyName, prompt: stepLinesPrompt });
  const { prm, meter, description, dispose } = await loadExperimentPrm(options.prm);
  try {
    const perBudget: SearchExperimentResult['perBudget'] = [];
    for (const n of options.budgets) {
      const beamWidth = Math.min(options.beamWidth, n);
      if (n % beamWidth !== 0) throw new Error(`the beam width ${beamWidth} must divide the budget ${n}`);
      const outcomes: StrategyOutcome[][] = [];
      for (const [index, item] of items.entries()) {
        outcomes.push(
          await compareOnProblem(prm, policy, item.problem, {
            n,
            beamWidth,
            maxSteps: options.maxSteps,
            seed: options.seed + 1 + index,
            meter,
            pickBy: options.pickBy,
          }),
        );
        options.onProgress?.(`n ${n}: ${index + 1} of ${items.length} problems`);
      }
      perBudget.push({ n, summaries: summarize(outcomes) });
    }
    const oneSampleExact = items.reduce((sum, item) => sum + organism.successProbability(item.problem, []), 0) / items.length;
    const rows = perBudget.flatMap(({ n, summaries }) =>
      summaries.map((summary) => [
        String(n),
        summary.strategy,
        percent(summary.accuracy),
        percent(summary.processAccuracy),
        count(summary.generatedTokens),
        count(summary.scoredTokens),
      ]),
    );
    const markdown = [
      `${items.length} organism problems (seed ${options.seed}, ${options.steps[0]}–${options.steps[1]} steps, numbers up to ${options.maxNumber}); policy ${policyName}; PRM: ${description}; beam width ${options.beamWidth}, at most ${options.maxSteps} steps; choices picked by ${options.pickBy === 'last' ? "the last step's score" : `the ${options.pickBy} of the step scores`}.`,
      '',
      markdownTable(['n', 'strategy', 'answer right', 'no wrong step', 'generated tokens', 'PRM tokens'], rows),
      '',
      `One sample is right with probability ${percent(oneSampleExact)} (the policy's closed form, averaged over the problems); "first sample" measures it. Tokens are means per problem (generated: the organism tokenizer's; PRM: those the PRM ran); "first sample" counts an n-th of the N samples' tokens, and the votes and best-of-N share the same N samples.`,
    ].join('\n');
    return { prmDescription: description, policyName, oneSampleExact, perBudget, markdown };
  } finally {
    await dispose();
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const args = experimentArgs(argv, ['problems', 'seed', 'prm', 'n', 'beam-width', 'max-steps', 'error', 'rescue', 'steps', 'max-number', 'pick-by']);
  const fallback = defaultSearchExperiment;
  const options: SearchExperimentOptions = {
    problems: args.number('problems', fallback.problems),
    seed: args.number('seed', fallback.seed),
    prm: args.text('prm') ?? fallback.prm,
    budgets: args.list('n', fallback.budgets),
    beamWidth: args.number('beam-width', fallback.beamWidth),
    maxSteps: args.number('max-steps', fallback.maxSteps),
    errorProbability: args.number('error', fallback.errorProbability),
    rescueProbability: args.number('rescue', fallback.rescueProbability),
    steps: args.range('steps', fallback.steps),
    maxNumber: args.number('max-number', fallback.maxNumber),
    pickBy: args.text('pick-by') ?? fallback.pickBy,
    onProgress: (message) => process.stderr.write(`\r${message}   `),
  };
  const started = performance.now();
  const result = await runSearchExperiment(options);
  process.stderr.write(`\rdone in ${((performance.now() - started) / 1000).toFixed(0)} s${' '.repeat(30)}\n`);
  console.log(result.markdown);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
