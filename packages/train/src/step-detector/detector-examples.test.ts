import { describe, expect, it } from 'vitest';
import { boundaryEnds, boundaryMetrics } from './boundary-metrics.js';
import { boundaryTokenLabels, detectorExamples } from './detector-examples.js';

describe('detectorExamples and boundaryTokenLabels', () => {
  it('joins trimmed steps with spaces and labels the token holding each step’s last character', () => {
    const { examples, skipped } = detectorExamples([
      { problem: 'p', steps: [' 3 × 12 = 36.', '36 − 8 = 28. ', 'The answer is 28.'] },
      { problem: 'q', steps: ['only one step'] },
    ]);
    expect(skipped).toBe(1);
    const [example] = examples;
    expect(example!.solution).toBe('3 × 12 = 36. 36 − 8 = 28. The answer is 28.');
    expect(example!.stepSpans).toEqual([
      [0, 12],
      [13, 25],
      [26, 43],
    ]);
    expect(boundaryEnds(example!.stepSpans)).toEqual([12, 25]);
    // Tokens "3", " ×", " 12", " =", " 36", "." | " 36", ... with "." ending at 12; and a merged ". " token for the second.
    const tokens: [number, number][] = [
      [0, 1],
      [1, 3],
      [3, 6],
      [6, 8],
      [8, 11],
      [11, 12],
      [12, 15],
      [15, 24],
      [24, 26],
      [26, 43],
    ];
    expect([...boundaryTokenLabels(tokens, example!)]).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 1, 0]);
  });
});

describe('boundaryMetrics', () => {
  it('pools exact boundary matches over solutions', () => {
    const metrics = boundaryMetrics([[12, 25, 30], [5], []], [[12, 25], [6], [4]]);
    expect(metrics).toMatchObject({
      truePositives: 2,
      falsePositives: 2,
      falseNegatives: 2,
      boundaries: 4,
      solutions: 3,
      precision: 0.5,
      recall: 0.5,
      f1: 0.5,
    });
    expect(boundaryMetrics([[]], [[]])).toMatchObject({ precision: 1, recall: 1, f1: 1 });
  });
});
