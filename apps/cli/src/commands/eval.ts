import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { ProcessRM } from '@reward-lens/core';
import { evaluatePrmBench, evaluateProcessBench } from '@reward-lens/eval';
import {
  chooseEvaluationThreshold,
  readPrmBenchFile,
  readProcessBenchFile,
  writeReport,
  type EvaluationThreshold as Thresholding,
} from '@reward-lens/eval/node';
import type { CliStreams } from '../cli-streams.js';
import type { Command } from '../command.js';
import { loadProcessRM, modelDescription } from '../load-process-rm.js';
import { modelOptionsHelp } from '../model-options.js';
import { exitCodes } from '../report-error.js';
import { ProgressReporter } from '../score/progress-reporter.js';
import { writeText } from '../write-text.js';
import { evalReportData, type EvalReportInput } from './eval-report.js';
import { parseEvalSettings, type EvalSettings } from './eval-settings.js';
import { prmBenchSummary, processBenchSummary } from './eval-summary.js';
import { checkReadable } from '../check-readable.js';

const evalUsage = `Usage:
  reward-lens eval --data <file> [--calibration <file>] [--report <file.html>] [options]
  reward-lens eval --data <prmbench.jsonl> --format prmbench [options]

Evaluates a process reward model on labelled steps. ProcessBench format (a JSON array, or JSONL
streamed in bounded memory): {"id", "problem", "steps": [...], "label", "final_answer_correct"},
label the 0-based index of the earliest erroneous step or -1. The prediction for a solution is
the first step scoring below the threshold (-1 if none); ProcessBench's metric is the accuracy on
erroneous solutions (prediction = label), on correct ones (prediction = -1), and F1, their
harmonic mean. Also: step AUROC (threshold-free), where the lowest step falls (outcome drift),
a reliability diagram with the expected calibration error, and best-of-N over problems that
appear more than once.

Data:
  -d, --data <file>             the split to score (.json: an array; otherwise JSONL)
  --format <name>               processbench (default) or prmbench (PRMBench's JSONL: per error
                                type step detection, PRMScore, and the verification index)
  --calibration <file>          a ProcessBench-format calibration split, disjoint from --data:
                                the threshold is the one with the best F1 there, and a step
                                calibration is fitted there (its reliability is then measured
                                on --data). A solution in both is refused.
  --calibration-method <name>   isotonic (default) or platt
  --calibration-domain <text>   what kind of text the calibration split holds (named in the
                                notes of calibrated results)
  --save-calibration <file>     write the fitted calibration as JSON (prm.withCalibration reads it)
  --threshold <x>               a fixed threshold instead (reported as fixed). Default without
                                either: 0.5 for probability scores, 0 for a raw value head

Model:
${modelOptionsHelp}
  --batch-size <n>              solutions per forward pass (default: 8)
  --truncation <mode>           none (default): a solution longer than the model is not scored;
                                left: keep its end

Output:
  --json                        the metrics as one JSON object instead of the summary
  --predictions <file>          one JSON line per solution: id, label, prediction, stepScores
  --report <file.html>          a self-contained HTML report (opens without a server): step
                                curves, argmin histogram, best-of-N, reliability diagram,
                                confusion table, PRMBench types, the toy experiments' plots
  -q, --quiet                   no progress counter on stderr
  -h, --help                    show this help

Exit status: 0 every solution scored, 1 an error or some solutions not scored, 2 a usage error.

Examples:
  reward-lens eval --data ../shared/data/processbench/gsm8k.json --truncation left --report gsm8k.html
  reward-lens eval --model models/prm --recipe qwen2.5-math-prm --data test.jsonl --calibration dev.jsonl --json
  reward-lens eval --data ../shared/data/prmbench/subset400.jsonl --format prmbench
`;

/** NaN and infinities as null, so the JSON parses everywhere. */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, entry) => (typeof entry === 'number' && !Number.isFinite(entry) ? null : entry));
}

/** `--report`: the HTML report of the run, and a line on stderr saying where. */
async function writeEvalReport(settings: EvalSettings, streams: CliStreams, data: Omit<EvalReportInput, 'model' | 'data'>): Promise<void> {
  if (settings.report === undefined) return;
  await writeReport(settings.report, evalReportData({ model: modelDescription(settings), data: settings.data, ...data }));
  if (!settings.json) await writeText(streams.stderr, `reward-lens: report written to ${settings.report}\n`);
}

async function runProcessBench(prm: ProcessRM, settings: EvalSettings, thresholding: Thresholding, streams: CliStreams): Promise<number> {
  const records = await readProcessBenchFile(settings.data);
  const progress = new ProgressReporter(streams.stderr, { enabled: !settings.quiet && !settings.json });
  const predictions = settings.predictions === undefined ? undefined : createWriteStream(settings.predictions, { encoding: 'utf8' });
  if (predictions) await once(predictions, 'open');
  const run = await evaluateProcessBench(prm, records, {
    threshold: thresholding.threshold,
    batchSize: settings.batchSize,
    ...(thresholding.calibration ? { calibration: thresholding.calibration } : {}),
    onItem: predictions ? (prediction) => writeText(predictions, `${toJson(prediction)}\n`) : undefined,
    onProgress: ({ items, failures }) => progress.update(items + failures, failures),
  });
  progress.clear();
  if (predictions) {
    predictions.end();
    await once(predictions, 'finish');
  }
  const evaluation = { ...run.evaluation, notes: [...thresholding.notes, ...run.evaluation.notes] };
  if (settings.json) {
    const { curves: _curves, ...metrics } = evaluation;
    const calibration = thresholding.calibration
      ? { method: thresholding.calibration.map.method, set: thresholding.calibration.set, diagnostics: thresholding.calibration.diagnostics }
      : undefined;
    await writeText(
      streams.stdout,
      `${toJson({ format: 'processbench', model: modelDescription(settings), data: settings.data, ...metrics, ...(calibration ? { calibration } : {}), failures: run.failureCount, failureSample: run.failures.slice(0, 10) })}\n`,
    );
  } else {
    const heading = `reward-lens eval: ${evaluation.items} solutions from ${settings.data}\nmodel          ${modelDescription(settings)}`;
    await writeText(streams.stdout, processBenchSummary(heading, evaluation, run.failures, run.failureCount));
  }
  await writeEvalReport(settings, streams, {
    failures: run.failureCount,
    notes: prm.notes,
    processBench: evaluation,
    ...(thresholding.calibration ? { calibration: thresholding.calibration } : {}),
  });
  return run.failureCount > 0 ? exitCodes.failure : exitCodes.success;
}

async function runPrmBench(prm: ProcessRM, settings: EvalSettings, thresholding: Thresholding, streams: CliStreams): Promise<number> {
  const { records, failures } = await readPrmBenchFile(settings.data);
  const progress = new ProgressReporter(streams.stderr, { enabled: !settings.quiet && !settings.json });
  const run = await evaluatePrmBench(prm, records, {
    threshold: thresholding.threshold,
    batchSize: settings.batchSize,
    onProgress: (done) => progress.update(done, 0),
  });
  progress.clear();
  const allFailures = [...failures, ...run.failures];
  const result = { ...run, failures: allFailures, notes: [...thresholding.notes, ...run.notes] };
  if (settings.json) await writeText(streams.stdout, `${toJson({ format: 'prmbench', model: modelDescription(settings), data: settings.data, ...result })}\n`);
  else
    await writeText(
      streams.stdout,
      prmBenchSummary(`reward-lens eval: ${run.samples} PRMBench samples from ${settings.data}\nmodel          ${modelDescription(settings)}`, result),
    );
  await writeEvalReport(settings, streams, { failures: allFailures.length, notes: prm.notes, prmBench: result });
  return allFailures.length > 0 ? exitCodes.failure : exitCodes.success;
}

/** `reward-lens eval`: ProcessBench- or PRMBench-format data scored by any PRM, with metrics, predictions and a report. */
export const evalCommand: Command = {
  name: 'eval',
  summary: 'evaluate a PRM on ProcessBench- or PRMBench-format data (metrics, predictions, an HTML report)',
  usage: evalUsage,
  async run(args, streams) {
    const settings = parseEvalSettings(args, evalUsage);
    // The files are checked before the model loads, so a typo fails at once.
    for (const path of [settings.data, settings.calibration?.path]) await checkReadable(path);
    const prm = await loadProcessRM(settings);
    try {
      const thresholding = await chooseEvaluationThreshold(prm, {
        ...(settings.calibration ? { calibration: settings.calibration } : {}),
        ...(settings.threshold !== undefined ? { threshold: settings.threshold, thresholdReason: 'given with --threshold' } : {}),
        batchSize: settings.batchSize,
      });
      return settings.format === 'prmbench'
        ? await runPrmBench(prm, settings, thresholding, streams)
        : await runProcessBench(prm, settings, thresholding, streams);
    } finally {
      await prm.dispose();
    }
  },
};
