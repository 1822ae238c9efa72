import type { PrmBenchRun, ProcessBenchEvaluation, RecordFailure } from '@reward-lens/eval';

const percent = (value: number) => (Number.isNaN(value) ? 'n/a' : `${(100 * value).toFixed(1)}%`);
const fixed = (value: number, digits = 3) => (Number.isNaN(value) ? 'n/a' : value.toFixed(digits));

function failureLines(failures: readonly RecordFailure[], count: number): string[] {
  if (count === 0) return [];
  const byCode = new Map<string, number>();
  for (const failure of failures) byCode.set(failure.code, (byCode.get(failure.code) ?? 0) + 1);
  const codes = [...byCode.entries()].map(([code, times]) => `${code} ×${times}`).join(', ');
  const hint = byCode.has('SEQUENCE_TOO_LONG') ? '; --truncation left keeps the end of long solutions' : '';
  return [`not scored     ${count} solution${count === 1 ? '' : 's'} (${codes}${count > failures.length ? ', first 100 counted' : ''})${hint}`];
}

/** The terminal summary of a ProcessBench-format evaluation. */
export function processBenchSummary(heading: string, evaluation: ProcessBenchEvaluation, failures: readonly RecordFailure[], failureCount: number): string {
  const { metrics, auroc, drift, reliability, threshold } = evaluation;
  const lines = [
    heading,
    `threshold      ${fixed(threshold.value, 4)} (${threshold.source})`,
    `ProcessBench   accuracy on erroneous ${percent(metrics.errorAccuracy)} (${metrics.confusion.erroneous.exact}/${metrics.erroneousItems})   on correct ${percent(metrics.correctAccuracy)} (${metrics.confusion.correct.clean}/${metrics.correctItems})   F1 ${percent(metrics.f1)}`,
    `               erroneous solutions flagged early ${metrics.confusion.erroneous.early}, late ${metrics.confusion.erroneous.late}, not at all ${metrics.confusion.erroneous.missed}; correct ones flagged ${metrics.confusion.correct.falseAlarm}`,
    `step AUROC     ${fixed(auroc.auroc)} (${auroc.positives} correct steps vs ${auroc.negatives} first-erroneous steps; threshold-free)`,
    `outcome drift  lowest step is the last in ${percent(drift.lastStepFraction)} of ${drift.items} solutions (${percent(drift.lastStepFractionByChance)} by chance); at the labelled error in ${percent(drift.argminAtLabel.fraction)}`,
    `calibration    ECE ${fixed(reliability.before.ece)} raw${reliability.reading === 'sigmoid' ? ' (through a sigmoid)' : ''}${reliability.after ? `, ${fixed(reliability.after.ece)} calibrated` : ''} (${reliability.before.binning})`,
  ];
  if (evaluation.bestOfN) {
    const largest = evaluation.bestOfN.ns[evaluation.bestOfN.ns.length - 1]!;
    const picks = evaluation.bestOfN.points.filter((point) => point.n === largest).map((point) => `${point.rule} ${percent(point.finalAccuracy)}`);
    lines.push(
      `best-of-${largest}      final-answer accuracy over ${evaluation.bestOfN.problems} repeated problems: ${picks.join(', ')} (random ${percent(evaluation.bestOfN.random.finalAccuracy)})`,
    );
  }
  if (drift.warning) lines.push(`warning: ${drift.warning}`);
  lines.push(...failureLines(failures, failureCount));
  for (const note of evaluation.notes) lines.push(`note: ${note}`);
  return `${lines.join('\n')}\n`;
}

/** The terminal summary of a PRMBench evaluation: one row per error type. */
export function prmBenchSummary(heading: string, run: PrmBenchRun): string {
  const rows = Object.entries(run.metrics.byType).map(([type, metrics]) => [
    type,
    String(metrics.samples),
    fixed(metrics.prmScore),
    fixed(metrics.f1),
    fixed(metrics.negativeF1),
    fixed(metrics.firstErrorAccuracy),
  ]);
  const { total } = run.metrics;
  rows.push(['total (errors)', String(total.samples), fixed(total.prmScore), fixed(total.f1), fixed(total.negativeF1), fixed(total.firstErrorAccuracy)]);
  const header = ['type', 'samples', 'PRMScore', 'F1', 'negative F1', 'first-error acc.'];
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  const { verification } = run;
  const lines = [
    heading,
    `threshold      ${fixed(run.threshold.value, 4)} (${run.threshold.source}); a step is valid when its score is above it`,
    '',
    line(header),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...rows.map(line),
    '',
    `verification index  ${percent(verification.index)} of ${verification.pairs} original/modified pairs score the modified step lower (95% CI ${percent(verification.interval.low)}-${percent(verification.interval.high)}; ${verification.ties} ties; ${verification.skipped} pairs skipped: question or earlier steps differ)`,
    ...failureLines(run.failures, run.failures.length),
    ...run.notes.map((note) => `note: ${note}`),
  ];
  return `${lines.join('\n')}\n`;
}
