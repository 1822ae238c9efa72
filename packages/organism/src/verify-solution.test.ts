import { InvalidInputError } from '@reward-lens/core';
import { describe, expect, it } from 'vitest';
import { parseProblem } from './problem.js';
import { verifySolution } from './verify-solution.js';

// Hand-written problems and solutions: the verifier must judge text nobody generated.
const pencils =
  'Ann buys 3 boxes of pencils. Each box holds 12 pencils. She gives 8 pencils to Ben. Ben has 7 cards. She packs the pencils into bags of 4. How many bags does Ann have now?';
const right = [
  '3 boxes of 12 pencils is 3 × 12 = 36 pencils.',
  '36 pencils minus 8 pencils is 36 − 8 = 28 pencils.',
  '28 pencils in bags of 4 is 28 ÷ 4 = 7 bags.',
  'The answer is 7.',
];

const verdicts = (steps: readonly string[]) => verifySolution(pencils, steps).steps.map((step) => step.verdict);
const replace = (index: number, text: string) => right.map((step, at) => (at === index ? text : step));

describe('verifySolution', () => {
  it('reads the problem as a chain: start, operations in order, distractors aside', () => {
    const structure = parseProblem(pencils);
    expect(structure.start).toMatchObject({ value: 3, noun: { plural: 'boxes' } });
    expect(structure.operations.map((operation) => [operation.operation, operation.operand, operation.after.plural])).toEqual([
      ['×', 12, 'pencils'],
      ['−', 8, 'pencils'],
      ['÷', 4, 'bags'],
    ]);
    expect(structure.distractors.map((distractor) => distractor.value)).toEqual([7]);
  });

  it('a right solution: every step correct, label -1, right answer', () => {
    const verification = verifySolution(pencils, right);
    expect(verification.steps.map((step) => step.verdict)).toEqual(['correct', 'correct', 'correct', 'correct']);
    expect(verification).toMatchObject({ firstErrorStep: -1, expectedAnswer: 7, finalAnswer: 7, finalAnswerCorrect: true });
  });

  it('a wrong result, and the steps after it judged on the solution’s own quantities', () => {
    const steps = [
      '3 boxes of 12 pencils is 3 × 12 = 35 pencils.',
      '35 pencils minus 8 pencils is 35 − 8 = 27 pencils.',
      '27 pencils in bags of 4 is 27 ÷ 4 = 7 bags.',
      'The answer is 7.',
    ];
    const verification = verifySolution(pencils, steps);
    expect(verification.steps.map((step) => step.verdict)).toEqual(['wrong-result', 'correct', 'wrong-result', 'correct']);
    expect(verification.steps[0]!.reason).toBe('3 × 12 is 36, not 35');
    expect(verification.steps[2]!.reason).toBe('27 ÷ 4 is not a whole number, not 7');
    // Two errors, and the answer happens to be right: flawed, right final answer.
    expect(verification).toMatchObject({ firstErrorStep: 0, finalAnswerCorrect: true });
  });

  it('a misread quantity: from the problem, from an earlier step, or in the answer', () => {
    expect(verdicts(replace(0, '3 boxes of 21 pencils is 3 × 21 = 63 pencils.'))[0]).toBe('wrong-copy');
    expect(verdicts(replace(1, '63 pencils minus 8 pencils is 63 − 8 = 55 pencils.'))[1]).toBe('wrong-copy');
    expect(verdicts(replace(3, 'The answer is 28.'))).toEqual(['correct', 'correct', 'correct', 'wrong-copy']);
  });

  it('a wrong operation on the right operands', () => {
    const verification = verifySolution(pencils, replace(1, '36 pencils plus 8 pencils is 36 + 8 = 44 pencils.'));
    // The next step divides 28, a number the solution no longer has: a misread of its own running quantity.
    expect(verification.steps.map((step) => step.verdict)).toEqual(['correct', 'wrong-operation', 'wrong-copy', 'correct']);
    expect(verification.steps[1]!.reason).toBe('36 + 8 = 44; expected 36 − 8');
    expect(verification.firstErrorStep).toBe(1);
  });

  it('a dropped step: the next operation done on the quantity before it', () => {
    const steps = ['3 boxes of 12 pencils is 3 × 12 = 36 pencils.', '36 pencils in bags of 4 is 36 ÷ 4 = 9 bags.', 'The answer is 9.'];
    const verification = verifySolution(pencils, steps);
    expect(verification.steps.map((step) => step.verdict)).toEqual(['correct', 'skipped-step', 'correct']);
    expect(verification).toMatchObject({ firstErrorStep: 1, finalAnswer: 9, finalAnswerCorrect: false });
    expect(verdicts(right.slice(0, 2).concat('The answer is 28.'))).toEqual(['correct', 'correct', 'skipped-step']);
  });

  it('unneeded steps: a distractor used, a step after the last operation, anything after the answer', () => {
    const withDistractor = [right[0]!, '36 pencils plus 7 cards is 36 + 7 = 43 pencils.', ...right.slice(1)];
    const verification = verifySolution(pencils, withDistractor);
    expect(verification.steps.map((step) => step.verdict)).toEqual(['correct', 'unneeded-step', 'correct', 'correct', 'correct']);
    expect(verification).toMatchObject({ firstErrorStep: 1, finalAnswerCorrect: true });
    expect(verdicts([...right.slice(0, 3), '7 bags times 2 is 7 × 2 = 14 bags.', 'The answer is 7.'])[3]).toBe('unneeded-step');
    expect(verdicts([...right, 'The answer is 7.'])[4]).toBe('unneeded-step');
  });

  it('unparseable steps are errors of their own, with the reason', () => {
    const verification = verifySolution(pencils, replace(0, 'Three boxes of twelve pencils make thirty-six.'));
    expect(verification.steps[0]).toMatchObject({ verdict: 'unparseable' });
    expect(verification.firstErrorStep).toBe(0);
    expect(verifySolution(pencils, replace(0, '3 boxes of 12 elephants is 3 × 12 = 36 pencils.')).steps[0]!.reason).toMatch(
      /not a computation the organism knows/,
    );
    expect(verifySolution(pencils, replace(0, '3 boxes of 12 pencils is 3 × 12 = 36 elephants.')).steps[0]!.reason).toMatch(/"elephants" is not a noun/);
  });

  it('words that disagree with the equation are inconsistent', () => {
    expect(verdicts(replace(0, '3 boxes of 13 pencils is 3 × 12 = 36 pencils.'))[0]).toBe('inconsistent');
    expect(verdicts(replace(1, '36 pencils plus 8 pencils is 36 − 8 = 28 pencils.'))[1]).toBe('inconsistent');
  });

  it('reads ASCII operators, bare equations, loose spacing and a missing period', () => {
    const loose = ['3 * 12 = 36 pencils', '  36  -  8  =  28 pencils.', '28 / 4 = 7', 'The answer is 7'];
    expect(verdicts(loose)).toEqual(['correct', 'correct', 'correct', 'correct']);
    expect(verdicts(['12 x 3 = 36', '36 - 8 = 28', '28 / 4 = 7', 'The answer is 7.'])).toEqual(['correct', 'correct', 'correct', 'correct']);
  });

  it('judges prefixes and says where they stand', () => {
    const verification = verifySolution(pencils, right.slice(0, 2));
    expect(verification).toMatchObject({ firstErrorStep: -1, finalAnswer: null, finalAnswerCorrect: false });
    expect(verification.progress).toEqual({ operationsDone: 2, value: 28, onTrack: true, answered: false });
    expect(verifySolution(pencils, ['3 × 12 = 35']).progress).toEqual({ operationsDone: 1, value: 35, onTrack: false, answered: false });
  });

  it('a problem outside the language is a typed error naming the sentence', () => {
    expect(() => verifySolution('Ann has 3 boxes. The moon is bright. How many boxes does Ann have now?', [])).toThrow(InvalidInputError);
    expect(() => parseProblem('Ann has 3 boxes. The moon is bright. How many boxes does Ann have now?')).toThrow(
      /problem sentence 2: not an operation or a distractor/,
    );
    expect(() => parseProblem('Ann has 3 boxes. She splits the boxes into 2 equal groups and keeps one group. How many boxes does Ann have now?')).toThrow(
      /3 ÷ 2 is not a whole number/,
    );
  });
});
