import { InvalidInputError, type CharSpan } from '@reward-lens/core';

/** One solution with its delimiters removed, and where they were. */
export interface DetectorExample {
  problem: string;
  /** The steps (trimmed) joined with single spaces. */
  solution: string;
  /** Each step's characters in `solution`; a boundary is the end of every step but the last. */
  stepSpans: CharSpan[];
}

/**
 * A step-labelled record as a detector learns from it: the steps joined with spaces, so the label
 * is where the delimiter was. Records with fewer than two steps teach nothing about boundaries
 * and are left out (the count says how many).
 */
export function detectorExamples(records: readonly { problem: string; steps: readonly string[] }[]): { examples: DetectorExample[]; skipped: number } {
  const examples: DetectorExample[] = [];
  let skipped = 0;
  records.forEach((record, index) => {
    const steps = record.steps.map((step) => step.trim()).filter((step) => step !== '');
    if (typeof record.problem !== 'string') throw new InvalidInputError('"problem" must be a string', { location: `record ${index}` });
    if (steps.length < 2) {
      skipped += 1;
      return;
    }
    const stepSpans: CharSpan[] = [];
    let cursor = 0;
    for (const step of steps) {
      stepSpans.push([cursor, cursor + step.length]);
      cursor += step.length + 1;
    }
    examples.push({ problem: record.problem, solution: steps.join(' '), stepSpans });
  });
  return { examples, skipped };
}

/** Per token of the solution (its characters in `tokenSpans`), 1 when a labelled step ends inside it: the token holding a step's last character. */
export function boundaryTokenLabels(tokenSpans: readonly CharSpan[], example: DetectorExample): Uint8Array {
  const labels = new Uint8Array(tokenSpans.length);
  const ends = example.stepSpans.slice(0, -1).map(([, end]) => end);
  let token = 0;
  for (const end of ends) {
    while (token < tokenSpans.length && tokenSpans[token]![1] < end) token += 1;
    if (token < tokenSpans.length && tokenSpans[token]![0] < end) labels[token] = 1;
  }
  return labels;
}
