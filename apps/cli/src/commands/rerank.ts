import { aggregatorNames, type ProcessRM } from '@reward-lens/core';
import { createAnswerChecker, rerankRecords, type PercentMeaning, type RerankMethod, type Reranked } from '@reward-lens/search';
import type { CliStreams } from '../cli-streams.js';
import type { Command } from '../command.js';
import { parseCommandLine } from '../parse-command-line.js';
import { exitCodes } from '../report-error.js';
import { ProgressReporter } from '../score/progress-reporter.js';
import { oneLine, truncate } from '../text-layout.js';
import { UsageError } from '../usage-error.js';
import { writeText } from '../write-text.js';
import { labelFields, readJsonRecords, writeRecordError } from './search-json-records.js';
import { RecordTally, rightOrWrong } from './record-tally.js';
import { checkReadable } from '../check-readable.js';
import { loadPrm, prmOptions, prmOptionsHelp } from './search-prm.js';
import { booleanOptions, helpOption, quietOption, stringOptions } from '../option-table.js';
import { parseChoiceOption } from '../parse-choice-option.js';

const methods: readonly RerankMethod[] = ['weighted-vote', 'best-of-n', 'majority-vote'];
const percentMeanings: readonly PercentMeaning[] = ['auto', 'fraction', 'number'];

const rerankUsage = `Usage:
  reward-lens rerank --file <records.jsonl> [options]
  reward-lens rerank [-] [options] < records.jsonl

Chooses one of N candidate solutions per problem with a process reward model. Records are
{"problem": text, "candidates": [solution, ...]}, a solution being one text (split into steps at
the PRM's delimiter) or an array of steps; a record with "answer" (or "reference") also says
whether the chosen answer is right.

Input:
  -f, --file <path>         JSONL (one record per line) or JSON (a record or an array of them)
  -                         read stdin (also the default when stdin is not a terminal)

PRM:
${prmOptionsHelp}

Reranking:
  --method <name>           weighted-vote (default): the normalised final answer with the largest
                            sum of aggregated scores wins, and its best candidate is picked;
                            best-of-n: the highest aggregated score; majority-vote: the most
                            frequent answer (no PRM), its first candidate
  --aggregate <name>        how step scores become a candidate's score: ${aggregatorNames().join(', ')} (default: min)
  --percent <meaning>       what 50% means when answers are grouped: auto (default: fifty when
                            the problem mentions percent, else one half), fraction, number

Final answers are read as Qwen2.5-Math's evaluation reads them: the last \\boxed{...}, else "the
answer is ...", else "#### ...", else the last number; then normalised so that 0.5, 1/2,
\\frac{1}{2}, \\dfrac12, $0.50, "0.5 cups" and \\text{0.5} group together. Ties between answers go to
more candidates, then the higher single score, then the smaller normalised answer.

Output:
  --json                    one JSON object per record and line: pick (candidate index), method,
                            answer, score, answers (per candidate: answer as extracted,
                            normalized, score, stepScores), votes (per normalised answer: its
                            summed score and count), picks (all three methods), notes (and line)
  -q, --quiet               no progress counter on stderr
  -h, --help                show this help

A bad line gives {"line": N, "error": {"code", "message"}} and the run goes on. Exit status: 0 all
records reranked, 1 an error or some records failed, 2 a usage error.

Examples:
  reward-lens rerank --file candidates.jsonl
  reward-lens rerank --prm models/prm --recipe qwen2.5-math-prm --method best-of-n --aggregate last --json < candidates.jsonl
`;

const rerankOptions = {
  ...prmOptions,
  file: { type: 'string', short: 'f' },
  ...stringOptions('method', 'aggregate', 'percent'),
  ...booleanOptions('json'),
  ...quietOption,
  ...helpOption,
} as const;

function parseRerankSettings(args: readonly string[], stdinIsTerminal: boolean) {
  const { values, positionals } = parseCommandLine(args, rerankOptions, rerankUsage, true);
  if (positionals.some((positional) => positional !== '-'))
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals.find((positional) => positional !== '-'))}`, rerankUsage);
  if (values.file !== undefined && positionals.length > 0) throw new UsageError('give the input once: --file or -', rerankUsage);
  if (values.file === undefined && positionals.length === 0 && stdinIsTerminal)
    throw new UsageError('no input: give --file <path>, or JSONL on stdin', rerankUsage);
  const method = parseChoiceOption('--method', values.method, methods, rerankUsage, 'weighted-vote');
  const aggregate = parseChoiceOption('--aggregate', values.aggregate, aggregatorNames(), rerankUsage, 'min');
  const percent = parseChoiceOption('--percent', values.percent, percentMeanings, rerankUsage, 'auto');
  return { values, file: values.file, method, aggregate, percent, json: values.json === true, quiet: values.quiet === true };
}

function resultJson({ result, correct }: Reranked): Record<string, unknown> {
  return {
    method: result.method,
    pick: result.pick,
    answer: result.answer,
    score: result.score,
    ...(correct !== undefined ? { correct } : {}),
    answers: result.candidates.map((candidate) => ({
      index: candidate.index,
      answer: candidate.answer,
      normalized: candidate.normalized,
      score: candidate.score,
      stepScores: candidate.stepScores.map((score) => (Number.isFinite(score) ? score : null)),
      ...(candidate.error ? { error: candidate.error } : {}),
    })),
    votes: result.votes.map((vote) => ({ answer: vote.normalized, score: vote.total, count: vote.count })),
    picks: result.picks,
    notes: result.notes,
  };
}

function resultTable(label: string, { result, correct }: Reranked): string {
  const format = (score: number | null) => (score === null ? '—' : score.toFixed(3));
  const lines = [
    `── ${label}: pick ${result.pick ?? 'none'} by ${result.method}, answer ${result.answer ?? '—'}, score ${format(result.score)}${rightOrWrong(correct)}`,
    `     score   answer                normalized`,
    ...result.candidates.map(
      (candidate) =>
        `${candidate.index === result.pick ? '*' : ' '}${String(candidate.index).padStart(3)} ${format(candidate.score).padStart(7)}   ${truncate(oneLine(candidate.answer ?? '—'), 20).padEnd(20)}  ${truncate(candidate.normalized ?? (candidate.error ? `${candidate.error.code}: ${candidate.error.message}` : '—'), 40)}`,
    ),
    `votes (summed score, candidates): ${result.votes.map((vote) => `${vote.normalized} ${vote.total.toFixed(3)} (${vote.count})`).join(', ') || 'none'}`,
  ];
  return `${lines.join('\n')}\n`;
}

async function rerankAll(prm: ProcessRM, settings: ReturnType<typeof parseRerankSettings>, streams: CliStreams): Promise<number> {
  const checker = createAnswerChecker({ percent: settings.percent });
  const progress = new ProgressReporter(streams.stderr, { enabled: !settings.quiet });
  const tally = new RecordTally();
  const items = readJsonRecords(settings.file, streams.stdin, rerankUsage);
  for await (const outcome of rerankRecords(prm, items, { method: settings.method, aggregate: settings.aggregate, checker })) {
    tally.count(outcome);
    if ('error' in outcome) {
      if (!settings.json) progress.clear();
      await writeRecordError(streams, outcome.item.label, outcome.error, settings.json);
    } else {
      await writeText(
        streams.stdout,
        settings.json
          ? `${JSON.stringify({ ...labelFields(outcome.item.label), ...resultJson(outcome) })}\n`
          : (tally.records > 1 ? '\n' : '') + resultTable(outcome.item.label, outcome),
      );
    }
    progress.update(tally.records, tally.errors);
  }
  progress.clear();
  if (tally.errors > 0 || progress.showedProgress || tally.judged > 0)
    await writeText(streams.stderr, `reward-lens: ${tally.summary('reranked', 'records', 'picks right')}\n`);
  return tally.errors > 0 ? exitCodes.failure : exitCodes.success;
}

/** `reward-lens rerank`: best-of-N, weighted vote or majority vote over candidate solutions. */
export const rerankCommand: Command = {
  name: 'rerank',
  summary: 'choose among N candidate solutions: weighted vote, best-of-N or majority vote',
  usage: rerankUsage,
  async run(args, streams) {
    const settings = parseRerankSettings(args, streams.stdin.isTTY === true);
    await checkReadable(settings.file);
    const { prm, dispose } = await loadPrm(settings.values, rerankUsage);
    try {
      return await rerankAll(prm, settings, streams);
    } finally {
      await dispose();
    }
  },
};
