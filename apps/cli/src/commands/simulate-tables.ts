import type { BestOfNToyResult, McLabelRow } from '@reward-lens/eval';

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** The Monte-Carlo label experiment as a table, one row per (c, N). */
export function mcLabelsTable(rows: readonly McLabelRow[], seed: number): string {
  const body = rows.map((row) => [String(row.c), String(row.n), row.accuracy.toFixed(3), row.falseCorrect.toFixed(3), row.falseWrong.toFixed(3)]);
  return `How good are Monte-Carlo labels? 8-step solutions, 4,000 per c, ε = 0.1, seed ${seed}
(hard MC rule: a step is labelled correct when any of N rollouts succeeds)

${table(['c', 'N', 'accuracy', 'false "correct"', 'false "wrong"'], body)}

false "correct": among steps whose prefix holds an error; false "wrong": among steps with a clean prefix.
`;
}

/** The aggregation experiment as a table, one row per selection rule. */
export function bestOfNTable(result: BestOfNToyResult, seed: number): string {
  const body = result.rows.map((row) => [row.rule, row.finalAccuracy.toFixed(3), row.processCorrect.toFixed(3), row.meanSteps.toFixed(2)]);
  return `Aggregation in best-of-16: 3,000 problems, 4-16 steps, step error 0.1, lucky answer 0.15, seed ${seed}

${table(['rule', 'final accuracy', 'process correct', 'mean steps'], body)}

mean steps sampled: ${result.meanSampledSteps.toFixed(2)}
`;
}
