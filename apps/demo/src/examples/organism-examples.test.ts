import { verifySolution } from '@reward-lens/organism';
import { describe, expect, it } from 'vitest';
import { organismCandidates, organismExamples, verifyCandidate } from './organism-examples.js';

describe('organism examples', () => {
  it('are three solutions with errors of different kinds (an arithmetic slip first), then two correct ones, labelled as the verifier reads them', () => {
    const examples = organismExamples();
    expect(examples).toHaveLength(5);
    expect(examples[0]!.title).toMatch(/: wrong-result at step \d/);
    const withErrors = examples.slice(0, 3);
    expect(withErrors.every((example) => example.firstError >= 0)).toBe(true);
    expect(new Set(withErrors.map((example) => example.title.replace(/^.*: /, '').replace(/ at step.*$/, ''))).size).toBe(3);
    expect(examples.slice(3).every((example) => example.firstError === -1)).toBe(true);
    for (const example of examples) {
      expect(verifySolution(example.problem, example.solution.split('\n')).firstErrorStep, example.id).toBe(example.firstError);
    }
    expect(organismExamples()).toEqual(examples);
  });

  it('give candidates for the compare view with right and wrong answers, and read edited ones too', () => {
    const set = organismCandidates();
    expect(set.candidates).toHaveLength(6);
    expect(set.truth.some((truth) => truth?.finalAnswerCorrect)).toBe(true);
    expect(set.truth.some((truth) => truth && !truth.finalAnswerCorrect)).toBe(true);
    expect(verifyCandidate('Not an organism problem.', 'The answer is 3.')).toBeNull();
  });
});
