import { applyOperation, isCommutative, type Operation } from './operations.js';
import { chainValues, parseProblem, type ProblemStructure } from './problem.js';
import { parseStep } from './step-grammar.js';

/**
 * A step's verdict. Everything but `correct` is an error.
 * - `wrong-result`: the operation and operands are the ones called for; the result is not theirs.
 * - `wrong-copy`: the operation is the one called for, an operand (or the answer) is not the quantity it should be.
 * - `wrong-operation`: the operands are the ones called for, the operation is not.
 * - `skipped-step`: the step does a later operation (or answers) before one the answer needs.
 * - `unneeded-step`: the step is not called for: it uses a distractor, comes after the last
 *   operation or after the answer, or matches no operation.
 * - `inconsistent`: the words and the equation disagree (numbers or operation).
 * - `unparseable`: the step is not in the organism's language.
 */
export type StepVerdict = 'correct' | 'wrong-result' | 'wrong-copy' | 'wrong-operation' | 'skipped-step' | 'unneeded-step' | 'inconsistent' | 'unparseable';

export interface StepJudgement {
  readonly verdict: StepVerdict;
  /** Why, in words: the computation it was read as, and what was expected. */
  readonly reason: string;
}

/** Where a solution stands after its steps (what the policy continues from). */
export interface SolutionProgress {
  /** Operations of the problem the solution has moved past (done, or skipped over). */
  readonly operationsDone: number;
  /** The running quantity as the solution has it (the problem's start before any step). */
  readonly value: number;
  /** True when `value` is the right quantity after `operationsDone` operations. */
  readonly onTrack: boolean;
  readonly answered: boolean;
}

export interface Verification {
  readonly steps: readonly StepJudgement[];
  /** 0-based index of the first step that is not `correct`; -1 when there is none. */
  readonly firstErrorStep: number;
  /** The problem's answer. */
  readonly expectedAnswer: number;
  /** The number the solution's answer step states (its first one), or null without one. */
  readonly finalAnswer: number | null;
  readonly finalAnswerCorrect: boolean;
  readonly progress: SolutionProgress;
}

/**
 * Judges a solution (or a prefix of one) to a problem in the organism's language, step by step.
 * It reads the text; it does not know how the solution was made. A step is correct when it
 * performs the operation the problem calls for next, on the quantities the solution has at that
 * point (the running quantity as its earlier steps left it, right or wrong, and the problem's
 * number for that operation), and its result is that operation's; the answer step is correct
 * when every operation has been done and it states the running quantity. Steps after an error
 * are judged on the solution's own values, so each verdict is local; `firstErrorStep` is
 * ProcessBench's label. An unreadable problem is an `InvalidInputError`.
 *
 * @example
 * const { firstErrorStep, steps } = verifySolution(problem, ['3 boxes of 12 pencils is 3 × 12 = 35 pencils.', 'The answer is 35.']);
 */
export function verifySolution(problem: string | ProblemStructure, steps: readonly string[]): Verification {
  const structure = typeof problem === 'string' ? parseProblem(problem) : problem;
  const truth = chainValues(structure);
  const operations = structure.operations;
  const distractorValues = new Set(structure.distractors.map((distractor) => distractor.value));
  let position = 0;
  let value = structure.start.value;
  let answer: number | null = null;

  const judgements = steps.map((text): StepJudgement => {
    if (answer !== null) return { verdict: 'unneeded-step', reason: 'comes after the answer' };
    const step = parseStep(text);
    if (step.kind === 'unparseable') return { verdict: 'unparseable', reason: step.reason };
    if (step.kind === 'answer') {
      answer = step.value;
      if (position < operations.length) return { verdict: 'skipped-step', reason: `answers before operation ${position + 1} of ${operations.length}` };
      if (step.value !== value) return { verdict: 'wrong-copy', reason: `states ${step.value}; the solution's result is ${value}` };
      return { verdict: 'correct', reason: `states ${value}` };
    }
    const { left, operation, right, result } = step;
    const written = `${left} ${operation} ${right} = ${result}`;
    if (position >= operations.length) return { verdict: 'unneeded-step', reason: `${written} after the last operation` };
    const next = operations[position]!;
    const expected = `${value} ${next.operation} ${next.operand}`;
    const inconsistent = step.lead !== null && (step.lead.operation !== operation || step.lead.left !== left || step.lead.right !== right);
    const judge = (verdict: StepVerdict, reason: string, advanceTo: number | null): StepJudgement => {
      if (advanceTo !== null) {
        position = advanceTo;
        value = result;
      }
      return inconsistent
        ? { verdict: 'inconsistent', reason: `the words say ${step.lead!.left} ${step.lead!.operation} ${step.lead!.right}; ${written}` }
        : { verdict, reason };
    };

    if (operation === next.operation && sameOperands(operation, left, right, value, next.operand)) {
      const exact = applyOperation(operation, left, right);
      if (exact === result) return judge('correct', written, position + 1);
      return judge('wrong-result', `${left} ${operation} ${right} is ${exact ?? 'not a whole number'}, not ${result}`, position + 1);
    }
    if (operation !== next.operation && sameMultiset(left, right, value, next.operand)) {
      return judge('wrong-operation', `${written}; expected ${expected}`, position + 1);
    }
    for (let later = position + 1; later < operations.length; later++) {
      const candidate = operations[later]!;
      if (operation === candidate.operation && sameOperands(operation, left, right, value, candidate.operand)) {
        return judge('skipped-step', `${written} is operation ${later + 1}; operation ${position + 1} (${expected}) was not done`, later + 1);
      }
    }
    // A distractor's number, unless it is also the running quantity (then the step is an attempt at the next operation).
    const usesDistractor = [left, right].some((operand) => distractorValues.has(operand) && operand !== value);
    if (usesDistractor) return judge('unneeded-step', `${written} uses a number the answer does not need`, null);
    const sharesOperand = [left, right].includes(value) || [left, right].includes(next.operand);
    if (operation === next.operation) return judge('wrong-copy', `${written}; expected ${expected}`, position + 1);
    if (sharesOperand) return judge('wrong-operation', `${written}; expected ${expected}`, position + 1);
    return judge('unneeded-step', `${written} matches no operation of the problem`, null);
  });

  const firstErrorStep = judgements.findIndex((judgement) => judgement.verdict !== 'correct');
  const expectedAnswer = truth.at(-1)!;
  const finalAnswer = answer as number | null;
  return {
    steps: judgements,
    firstErrorStep,
    expectedAnswer,
    finalAnswer,
    finalAnswerCorrect: finalAnswer === expectedAnswer,
    progress: { operationsDone: position, value, onTrack: value === truth[position], answered: finalAnswer !== null },
  };
}

/** `left op right` reads `expectedLeft op expectedRight`, in either order when the operation commutes. */
function sameOperands(operation: Operation, left: number, right: number, expectedLeft: number, expectedRight: number): boolean {
  return (left === expectedLeft && right === expectedRight) || (isCommutative(operation) && left === expectedRight && right === expectedLeft);
}

function sameMultiset(left: number, right: number, expectedLeft: number, expectedRight: number): boolean {
  return (left === expectedLeft && right === expectedRight) || (left === expectedRight && right === expectedLeft);
}
