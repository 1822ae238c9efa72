import { aggregatorNames } from '@reward-lens/core';
import { searchRecords, type SearchResult, type SearchStrategy } from '@reward-lens/search';
import type { CliStreams } from '../cli-streams.js';
import type { Command } from '../command.js';
import { parseCommandLine } from '../parse-command-line.js';
import { parseIntegerOption } from '../parse-integer-option.js';
import { exitCodes } from '../report-error.js';
import { UsageError } from '../usage-error.js';
import { writeText } from '../write-text.js';
import { checkReadable } from '../check-readable.js';
import { labelFields, readJsonRecords, writeRecordError } from './search-json-records.js';
import { RecordTally, rightOrWrong } from './record-tally.js';
import { loadPolicy, parsePolicySpec } from './search-policy.js';
import { organismPolicyHelp, parsePolicySettings, policyOptions, policyOptionsHelp } from './search-policy-options.js';
import { loadPrm, prmOptions, prmOptionsHelp } from './search-prm.js';
import { booleanOptions, helpOption, stringOptions } from '../option-table.js';
import { parseChoiceOption } from '../parse-choice-option.js';

const strategies: readonly SearchStrategy[] = ['beam', 'dvts', 'best-of-n'];

const searchUsage = `Usage:
  reward-lens search --policy <policy> --problem <text> [options]
  reward-lens search --policy <policy> --file <problems.jsonl> [options]

Searches for a solution step by step with a policy that proposes steps and a process reward
model that scores them. Problems are {"problem": text} records (an "answer" or "reference" field
adds whether the chosen answer is right, and the accuracy at the end).

Policy:
  --policy <policy>         ${organismPolicyHelp}
                            tiny: the seeded tiny language model (noise, for trying the machinery);
                            a model folder (a causal LM, as reward-lens generate takes); an http(s)
                            URL of an OpenAI-compatible /v1/completions server (vLLM, llama.cpp's
                            server, ...); or a scripted policy (.json: an object from the steps so
                            far, joined by \\n, to next steps)
${policyOptionsHelp('--policy')}

PRM:
${prmOptionsHelp}

Search:
  --strategy <name>         beam (default): n/b prefixes kept, each extended by b steps per
                            iteration; dvts: n/b independent subtrees, each keeping its best
                            expansion; best-of-n: n whole solutions, reranked
  --n <n>                   candidates: steps per iteration, or solutions (default: 8)
  --beam-width <b>          b, which must divide n (default: 4)
  --max-steps <n>           the step budget (default: 16)
  --rank-by <name>          ranks partial solutions: ${aggregatorNames().join(', ')} (default: last)
  --pick-by <name>          scores finished solutions for the choice (default: last)
  --select <how>            best (default) or weighted-vote
  --scoring <how>           incremental (default: new steps scored on the cached prefix) or full
                            (every prefix re-scored from the start, as Python search libraries do)
  --seed <n>                seeds the policy's sampling (default: 0); the seeded PRM's weights
                            use --prm-seed
  --prm-seed <n>            the seeded tiny PRM instead of the default PRM: random weights from
                            seed n (its scores carry no meaning)

Input and output:
  --problem <text>          one problem
  -f, --file <path>         problems, JSONL or JSON
  --json                    one JSON object per problem and line: strategy, pick, answer,
                            solutions (steps, stepScores, score, answer, normalized, end), votes,
                            counts (generatedTokens, scoredTokens, proposals, scoredSteps,
                            iterations, scoringMs, generationMs, ...), notes
  -h, --help                show this help

Exit status: 0 success, 1 an error (or some records failed), 2 a usage error.

Examples:
  reward-lens search --policy tiny --problem 'What is 2 + 3?' --n 4 --beam-width 2 --max-steps 3
  reward-lens organism --n 20 --format organism --out problems.jsonl
  reward-lens search --policy organism:error=0.2,rescue=0.1 --file problems.jsonl --strategy dvts --n 8
  reward-lens search --policy http://127.0.0.1:8000/v1 --prm models/prm --recipe qwen2.5-math-prm --strategy dvts --n 16 --file problems.jsonl --json
`;

const searchOptions = {
  ...prmOptions,
  ...policyOptions,
  ...stringOptions('policy', 'problem'),
  file: { type: 'string', short: 'f' },
  ...stringOptions('strategy', 'n', 'beam-width', 'max-steps', 'rank-by', 'pick-by', 'select', 'scoring', 'prm-seed'),
  ...booleanOptions('json'),
  ...helpOption,
} as const;

function parseSearchSettings(args: readonly string[]) {
  const { values } = parseCommandLine(args, searchOptions, searchUsage);
  if (values.policy === undefined || values.policy === '') throw new UsageError('--policy is required', searchUsage);
  if ((values.problem === undefined) === (values.file === undefined)) throw new UsageError('give --problem or --file (one of them)', searchUsage);
  const integer = (flag: string, text: string | undefined, fallback: number, minimum: number, maximum: number) =>
    parseIntegerOption(flag, text, { minimum, maximum }, searchUsage) ?? fallback;
  const n = integer('--n', values.n, 8, 1, 100_000);
  const beamWidth = integer('--beam-width', values['beam-width'], Math.min(4, n), 1, 100_000);
  const strategy = parseChoiceOption('--strategy', values.strategy, strategies, searchUsage, 'beam');
  if (strategy !== 'best-of-n' && n % beamWidth !== 0) throw new UsageError(`--beam-width must divide --n (n ${n}, beam width ${beamWidth})`, searchUsage);
  return {
    prmValues: { ...values, seed: values['prm-seed'] },
    policy: parsePolicySpec(values.policy, searchUsage),
    policySettings: parsePolicySettings(values, searchUsage),
    problem: values.problem,
    file: values.file,
    options: {
      strategy,
      n,
      beamWidth,
      maxSteps: integer('--max-steps', values['max-steps'], 16, 1, 100_000),
      rankBy: parseChoiceOption('--rank-by', values['rank-by'], aggregatorNames(), searchUsage, 'last'),
      pickBy: parseChoiceOption('--pick-by', values['pick-by'], aggregatorNames(), searchUsage, 'last'),
      select: parseChoiceOption('--select', values.select, ['best', 'weighted-vote'], searchUsage, 'best'),
      scoring: parseChoiceOption('--scoring', values.scoring, ['incremental', 'full'], searchUsage, 'incremental'),
      seed: integer('--seed', values.seed, 0, 0, 0xffff_ffff),
    },
    json: values.json === true,
  };
}

function resultJson(result: SearchResult, problem: string, correct: boolean | undefined): Record<string, unknown> {
  const chosen = result.pick === null ? undefined : result.solutions[result.pick];
  return {
    problem,
    strategy: result.strategy,
    pick: result.pick,
    answer: chosen?.normalized ?? null,
    ...(correct !== undefined ? { correct } : {}),
    solutions: result.solutions.map((solution) => ({ ...solution, score: Number.isFinite(solution.score) ? solution.score : null })),
    votes: result.votes.map((vote) => ({ answer: vote.normalized, score: vote.total, count: vote.count })),
    counts: result.counts,
    notes: result.notes,
  };
}

function resultText(label: string, result: SearchResult, correct: boolean | undefined): string {
  const chosen = result.pick === null ? undefined : result.solutions[result.pick];
  const { counts } = result;
  const lines = [
    `── ${label}: ${result.strategy}, ${result.solutions.length} solution${result.solutions.length === 1 ? '' : 's'}; chose ${chosen ? `#${result.pick}` : 'none'}${chosen ? `, answer ${chosen.normalized ?? '—'}, score ${chosen.score.toFixed(3)}` : ''}${rightOrWrong(correct)}`,
    ...(chosen ? chosen.steps.map((step, index) => `  ${chosen.stepScores[index]!.toFixed(3).padStart(7)}  ${step}`) : []),
    `  generated ${counts.generatedTokens} tokens in ${counts.proposals} proposed steps; scored ${counts.scoredTokens} tokens (${counts.scoredSteps} steps) in ${counts.scoringMs.toFixed(0)} ms; ${counts.iterations} iteration${counts.iterations === 1 ? '' : 's'}`,
    ...result.notes.map((note) => `  note: ${note}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** `reward-lens search`: PRM-guided beam search, DVTS or best-of-N over a policy's steps. */
export const searchCommand: Command = {
  name: 'search',
  summary: 'search step by step with a policy and a PRM: beam search, DVTS or best-of-N',
  usage: searchUsage,
  async run(args, streams: CliStreams) {
    const settings = parseSearchSettings(args);
    await checkReadable(settings.file);
    const { prm, meter, dispose } = await loadPrm(settings.prmValues, searchUsage);
    let policy: Awaited<ReturnType<typeof loadPolicy>> | undefined;
    try {
      policy = await loadPolicy(settings.policy, settings.policySettings, searchUsage);
      const items =
        settings.problem !== undefined
          ? (async function* () {
              yield { label: 'problem', text: settings.problem!, value: { problem: settings.problem } as Record<string, unknown> };
            })()
          : readJsonRecords(settings.file, streams.stdin, searchUsage);
      const tally = new RecordTally();
      for await (const outcome of searchRecords(prm, policy.policy, items, { ...settings.options, meter })) {
        tally.count(outcome);
        if ('error' in outcome) {
          await writeRecordError(streams, outcome.item.label, outcome.error, settings.json);
          continue;
        }
        const { item, problem, result, correct } = outcome;
        await writeText(
          streams.stdout,
          settings.json
            ? `${JSON.stringify({ ...labelFields(item.label), ...resultJson(result, problem, correct) })}\n`
            : (tally.records > 1 ? '\n' : '') + resultText(item.label, result, correct),
        );
      }
      if (tally.judged > 0 || tally.errors > 0) await writeText(streams.stderr, `reward-lens: ${tally.summary('searched', 'problems', 'right')}\n`);
      return tally.errors > 0 ? exitCodes.failure : exitCodes.success;
    } finally {
      await policy?.dispose();
      await dispose();
    }
  },
};
