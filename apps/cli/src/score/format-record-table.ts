import { escapeControlCharacters, oneLine, truncate, wrap } from '../text-layout.js';
import type { ScoredRecord } from './score-batch.js';

const barCells = 8;
const partialBlocks = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const marker = '◀';

/**
 * A bar for `score` on `[lowest, highest]`. Probabilities are drawn on [0, 1], so bars compare
 * across solutions; raw scores of an uncalibrated model are comparable only within one solution, so
 * there the bar spans the solution's own range (lowest step: a sliver, highest: full).
 */
function bar(score: number, lowest: number, highest: number): string {
  if (!Number.isFinite(score)) return '?';
  const fraction = highest > lowest ? Math.min(Math.max((score - lowest) / (highest - lowest), 0), 1) : 1;
  const eighths = Math.max(1, Math.round(fraction * barCells * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + partialBlocks[eighths % 8]!;
}

// The labels are terse in JSON; a reader of the table gets what they mean for comparing numbers.
const gaugeGloss: Record<ScoredRecord['gauge'], string> = {
  INVARIANT: 'raw reward: compare within this model only',
  PROBABILITY: 'a probability in [0, 1]',
};
const trustGloss: Record<ScoredRecord['trust'], string> = {
  EXPLORATORY: 'not calibrated against labelled steps',
  CALIBRATED: 'calibrated against labelled steps',
};

function formatScore(score: number): string {
  return Number.isFinite(score) ? score.toFixed(4) : String(score);
}

/**
 * The readable report of one scored solution: the problem, one row per step (number, score, bar,
 * a marker, the step's text cut to `width`), the outcome and the aggregate, then the labels and
 * notes that say how far the numbers can be trusted. With a calibrated threshold the marker is on
 * the first step scoring below it (the step ProcessBench predicts wrong); without one, on the
 * lowest step.
 */
export function formatRecordTable(problem: string, record: ScoredRecord, options: { width: number; heading?: string }): string {
  const width = Math.max(options.width, 40);
  const finite = record.stepScores.filter((score) => Number.isFinite(score));
  const probability = record.gauge === 'PROBABILITY';
  const lowest = probability ? 0 : Math.min(...finite);
  const highest = probability ? 1 : Math.max(...finite);
  const lowestIndex = record.stepScores.indexOf(Math.min(...finite));
  const markedIndex = record.predictedErrorStep ?? lowestIndex;
  const scoreTexts = record.stepScores.map(formatScore);
  const numberWidth = Math.max(String(record.stepScores.length).length, 1);
  const scoreWidth = Math.max(...scoreTexts.map((text) => text.length), formatScore(record.outcome).length, 'score'.length);

  const lines: string[] = [];
  if (options.heading !== undefined) lines.push(options.heading);
  lines.push(truncate(`problem  ${oneLine(problem)}`, width));
  const rowPrefix = (number: string, score: string, barText: string, marker: string) =>
    `  ${number.padStart(numberWidth)}  ${score.padStart(scoreWidth)}  ${barText.padEnd(barCells)} ${marker} `;
  lines.push(`${rowPrefix('#', 'score', '', ' ')}step`);
  record.stepScores.forEach((score, index) => {
    const prefix = rowPrefix(String(index + 1), scoreTexts[index]!, bar(score, lowest, highest), index === markedIndex ? marker : ' ');
    lines.push(prefix + truncate(oneLine(record.steps[index] ?? ''), Math.max(width - prefix.length, 10)));
  });
  const labelWidth = Math.max('outcome'.length, record.aggregate.name.length);
  lines.push(`  ${'outcome'.padEnd(labelWidth)}  ${formatScore(record.outcome).padStart(scoreWidth)}`);
  const aggregateMarker = record.aggregate.name === 'min' && lowestIndex >= 0 && record.threshold === undefined ? `  ${marker} step ${lowestIndex + 1}` : '';
  lines.push(`  ${record.aggregate.name.padEnd(labelWidth)}  ${formatScore(record.aggregate.value).padStart(scoreWidth)}${aggregateMarker}`);
  if (record.threshold !== undefined) {
    const verdict =
      markedIndex >= 0
        ? `${marker} step ${markedIndex + 1} is the first step below it (the predicted first error)`
        : 'no step is below it (no error predicted)';
    lines.push(...wrap(`  threshold ${record.threshold.value.toFixed(4)}: ${verdict}; chosen on ${record.threshold.chosenOn}`, width, '        '));
  }
  lines.push(...wrap(`  gauge ${record.gauge} (${gaugeGloss[record.gauge]}), trust ${record.trust} (${trustGloss[record.trust]})`, width, '        '));
  for (const note of record.notes) lines.push(...wrap(`  note: ${escapeControlCharacters(note)}`, width, '        '));
  return `${lines.join('\n')}\n`;
}
