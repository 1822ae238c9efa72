import { aggregatorNames, type ProcessRM } from '@reward-lens/core';
import {
  createAnswerChecker,
  readRerankRecord,
  rerank,
  type AnswerChecker,
  type PercentMeaning,
  type RerankMethod,
  type RerankRecord,
  type RerankResult,
} from '@reward-lens/search';
import type { CliStreams } from '../cli-streams.js';
import type { Command } from '../command.js';
import { parseCommandLine } from '../parse-command-line.js';
import { exitCodes } from '../report-error.js';
import { ProgressReporter } from '../score/progress-reporter.js';
import { oneLine, truncate } from '../text-layout.js';
import { UsageError } from '../usage-error.js';
import { writeText } from '../write-text.js';
import { labelFields, readJsonRecords } from './search-json-records.js';
import { checkReadable } from './search-input-check.js';
import { loadPrm, prmOptions, prmOptionsHelp } from './search-prm.js';
import { booleanOptions, helpOption, quietOption, stringOptions } from '../option-table.js';

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
  const method = (values.method ?? 'weighted-vote') as RerankMethod;
  if (!methods.includes(method)) throw new UsageError(`--method must be one of ${methods.join(', ')}, got ${JSON.stringify(values.method)}`, rerankUsage);
  const aggregate = values.aggregate ?? 'min';
  if (!aggregatorNames().includes(aggregate))
    throw new UsageError(`--aggregate must be one of ${aggregatorNames().join(', ')}, got ${JSON.stringify(aggregate)}`, rerankUsage);
  const percent = (values.percent ?? 'auto') as PercentMeaning;
  if (!percentMeanings.includes(percent))
    throw new UsageError(`--percent must be one of ${percentMeanings.join(', ')}, got ${JSON.stringify(values.percent)}`, rerankUsage);
  return { values, file: values.file, method, aggregate, percent, json: values.json === true, quiet: values.quiet === true };
}

function resultJson(result: RerankResult, record: RerankRecord, checker: AnswerChecker): Record<string, unknown> {
  return {
    method: result.method,
    pick: result.pick,
    answer: result.answer,
    score: result.score,
    ...(record.reference !== undefined
      ? {
          correct:
            result.pick !== null &&
            result.candidates[result.pick]!.answer !== null &&
            checker.equal(result.candidates[result.pick]!.answer!, record.reference, { problem: record.problem }),
        }
      : {}),
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

function resultTable(label: string, result: RerankResult, json: Record<string, unknown>): string {
  const format = (score: number | null) => (score === null ? '—' : score.toFixed(3));
  const lines = [
    `── ${label}: pick ${result.pick ?? 'none'} by ${result.method}, answer ${result.answer ?? '—'}, score ${format(result.score)}${'correct' in json ? (json.correct ? ' (right)' : ' (wrong)') : ''}`,
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
  let records = 0;
  let errors = 0;
  let right = 0;
  let judged = 0;
  for await (const item of readJsonRecords(settings.file, streams.stdin, rerankUsage)) {
    records++;
    const record = 'error' in item ? item.error.message : readRerankRecord(item.value);
    if (typeof record === 'string') {
      errors++;
      const error = 'error' in item ? item.error : { code: 'INVALID_INPUT', message: record };
      if (settings.json) await writeText(streams.stdout, `${JSON.stringify({ ...labelFields(item.label), error })}\n`);
      else {
        progress.clear();
        await writeText(streams.stderr, `reward-lens: ${item.label}: ${error.code}: ${error.message}\n`);
      }
    } else {
      const result = await rerank(prm, record.problem, record.candidates, { method: settings.method, aggregate: settings.aggregate, checker });
      const json = resultJson(result, record, checker);
      if ('correct' in json) {
        judged++;
        if (json.correct) right++;
      }
      await writeText(
        streams.stdout,
        settings.json ? `${JSON.stringify({ ...labelFields(item.label), ...json })}\n` : (records > 1 ? '\n' : '') + resultTable(item.label, result, json),
      );
    }
    progress.update(records, errors);
  }
  progress.clear();
  const accuracy = judged > 0 ? `; ${right} of ${judged} picks right (${((100 * right) / judged).toFixed(1)}%)` : '';
  if (errors > 0 || progress.showedProgress || judged > 0)
    await writeText(streams.stderr, `reward-lens: reranked ${records - errors} of ${records} records, ${errors} error${errors === 1 ? '' : 's'}${accuracy}\n`);
  return errors > 0 ? exitCodes.failure : exitCodes.success;
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
