import type { ProcessRM } from '@reward-lens/core';
import { fromVllm } from '@reward-lens/remote';
import type { CliStreams } from '../cli-streams.js';
import type { Command } from '../command.js';
import { loadProcessRM } from '../load-process-rm.js';
import { modelOptionsHelp } from '../model-options.js';
import { stepDetectionOptionsHelp } from '../step-detection-options.js';
import { exitCodes } from '../report-error.js';
import { outputWidth } from '../text-layout.js';
import { writeText } from '../write-text.js';
import { formatRecordJson } from '../score/format-record-json.js';
import { formatRecordTable } from '../score/format-record-table.js';
import type { RecordInput, RecordLabel } from '../score/input-record.js';
import { openRecordSource, type RecordSource } from '../score/open-record-source.js';
import { ProgressReporter } from '../score/progress-reporter.js';
import { loadProgressReporter } from '../score/load-progress.js';
import { scoreBatch } from '../score/score-batch.js';
import { scoreRecordStream } from '../score/score-record-stream.js';
import { defaultBatchSize, parseScoreSettings, type ScoreSettings } from '../score/score-settings.js';

const scoreUsage = `Usage:
  reward-lens score --problem <text> --solution <text> [options]
  reward-lens score --problem <text> --step <text> --step <text> ... [options]
  reward-lens score --file <records.json | records.jsonl> [options]
  reward-lens score [-] [options] < records.jsonl

Scores every step of a solution with a process reward model. The last step's score is the
outcome score. Records are {"problem", "solution"} or {"problem", "steps": [...]} objects.

Input (one of):
  --problem <text>          the problem statement
  --solution <text>         the solution, split into steps at the delimiter
  --step <text>             one step; repeat in order instead of --solution
  -f, --file <path>         .json: one record or an array of records; .jsonl: one record per line
  -                         read stdin (also the default when stdin is not a terminal); JSON or
                            JSONL is told by content: a first line that is a whole JSON object
                            means JSONL

Model:
${modelOptionsHelp}

Remote (a PRM served by vLLM with STEP pooling, or by reward-lens serve):
  --vllm <base-url>         score on that server's /pooling endpoint (e.g. http://127.0.0.1:8000)
  --vllm-model <name>       the served model name (as /v1/models lists it); needs --recipe
  --vllm-api-key <key>      sent as Authorization: Bearer <key> (default: $VLLM_API_KEY)

Scoring:
  --delimiter <text>        what separates steps (default: the recipe's, \\n for tiny);
                            \\n, \\t, \\r and \\\\ are interpreted
  --delimiter-regex <re>    a regular expression instead: '\\n+' or '/^step \\d+:/im'
${stepDetectionOptionsHelp}
  --aggregate <name>        min, prod, mean or last, shown beside the outcome (default: min)
  --batch-size <n>          records per forward pass (default: ${defaultBatchSize})
  --truncation <mode>       none (default): a sequence longer than the model's positions is an
                            error; left: keep its end; steps cut off get no score (NaN, null
                            in JSON) and the aggregate is over the scored steps

Output:
  --json                    one JSON object per record and line: outcome, stepScores, steps,
                            aggregate, meta, notes, backend, gauge, trust (and line for JSONL)
  --table                   a table per record, also for JSONL input (which gives JSON by default)
  -q, --quiet               no progress counter on stderr
  -h, --help                show this help

JSONL input streams: a bad line gives {"line": N, "error": {"code", "message"}} and the run goes
on. Exit status: 0 all records scored, 1 an error or some records failed, 2 a usage error.

Examples:
  reward-lens score --problem 'What is 2+3*4?' --solution $'3*4=12.\\n2+12=14.\\nThe answer is 14.'
  reward-lens score --file examples/solution.json --json
  reward-lens score --file examples/batch.jsonl > scores.jsonl
  reward-lens score --model models/prm --recipe math-shepherd --file records.jsonl
  reward-lens score --vllm http://127.0.0.1:8000 --vllm-model Qwen/Qwen2.5-Math-PRM-7B --recipe qwen2.5-math-prm --file records.jsonl
`;

/** The model the settings name: a vLLM server's, or a local one (its loading shown on a terminal). */
async function openModel(settings: ScoreSettings, streams: CliStreams): Promise<ProcessRM> {
  if (!settings.vllm) {
    const loading = loadProgressReporter(streams.stderr, { enabled: !settings.quiet });
    try {
      return await loadProcessRM({ ...settings, onProgress: loading.onProgress });
    } finally {
      loading.clear();
    }
  }
  const apiKey = settings.vllm.apiKey ?? process.env.VLLM_API_KEY;
  return fromVllm(settings.vllm.url, {
    model: settings.vllm.model,
    recipe: settings.recipe!,
    ...(apiKey ? { apiKey } : {}),
    ...(settings.delimiter !== undefined ? { delimiter: settings.delimiter } : {}),
  });
}

function labelText(label: RecordLabel): string {
  return label.line !== undefined ? `line ${label.line}` : `index ${label.index ?? 0}`;
}

async function scoreSingle(prm: ProcessRM, input: RecordInput, settings: ScoreSettings, streams: CliStreams): Promise<number> {
  const outcome = (await scoreBatch(prm, [input], settings.aggregate))[0]!;
  if ('error' in outcome) {
    // One record and nothing else to go on with: its error is the run's error.
    await writeText(streams.stderr, `reward-lens: ${outcome.error.code}: ${outcome.error.message}\n`);
    return exitCodes.failure;
  }
  const text =
    settings.output === 'json' ? formatRecordJson({}, outcome) : formatRecordTable(input.problem, outcome.scored, { width: outputWidth(streams.stdout) });
  await writeText(streams.stdout, text);
  return exitCodes.success;
}

async function scoreMany(prm: ProcessRM, source: Extract<RecordSource, { kind: 'many' }>, settings: ScoreSettings, streams: CliStreams): Promise<number> {
  const asJson = settings.output === 'json' || (settings.output === 'auto' && source.format === 'jsonl');
  const progress = new ProgressReporter(streams.stderr, { enabled: !settings.quiet });
  const width = outputWidth(streams.stdout);
  let tablesWritten = 0;
  const totals = await scoreRecordStream(source.records, {
    batchSize: settings.batchSize,
    scoreInputs: (inputs) => scoreBatch(prm, inputs, settings.aggregate),
    async emit(record, outcome) {
      if (asJson) return writeText(streams.stdout, formatRecordJson(record.label, outcome));
      if ('error' in outcome) {
        progress.clear();
        return writeText(streams.stderr, `reward-lens: ${labelText(record.label)}: ${outcome.error.code}: ${outcome.error.message}\n`);
      }
      const problem = 'input' in record ? record.input.problem : '';
      const table = formatRecordTable(problem, outcome.scored, { width, heading: `── ${labelText(record.label)}` });
      await writeText(streams.stdout, (tablesWritten++ > 0 ? '\n' : '') + table);
    },
    onProgress: (current) => progress.update(current.records, current.errors),
  });
  progress.clear();
  if (totals.errors > 0 || progress.showedProgress) {
    await writeText(
      streams.stderr,
      `reward-lens: scored ${totals.scored} of ${totals.records} records, ${totals.errors} error${totals.errors === 1 ? '' : 's'}\n`,
    );
  }
  return totals.errors > 0 ? exitCodes.failure : exitCodes.success;
}

/** `reward-lens score`: step scores for one solution from flags, or for many from a file or stdin. */
export const scoreCommand: Command = {
  name: 'score',
  summary: 'score every step of a solution (flags, a JSON or JSONL file, or stdin)',
  usage: scoreUsage,
  async run(args, streams) {
    const settings = parseScoreSettings(args, scoreUsage, streams.stdin.isTTY === true);
    // The input is opened before the model loads, so a missing file fails fast.
    const source = await openRecordSource(settings.input, streams.stdin, scoreUsage);
    const prm = await openModel(settings, streams);
    try {
      return source.kind === 'single' ? await scoreSingle(prm, source.input, settings, streams) : await scoreMany(prm, source, settings, streams);
    } finally {
      await prm.dispose();
    }
  },
};
