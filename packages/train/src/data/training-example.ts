import { RewardLensError, type ProcessRM } from '@reward-lens/core';
import { trainingTargets, type LabelPolicy, type StepRecord } from './step-record.js';

/**
 * A record laid out as the model reads it: token ids, where the head is read and the target there
 * (NaN: not in the loss). The head is read at each step's read position; with token-level labels
 * (`StepRecord.correctPrefix`) at every token of the solution, the step reads among them.
 */
export interface TrainingExample {
  record: StepRecord;
  inputIds: Int32Array;
  readPositions: number[];
  targets: number[];
  /**
   * Tokens `[start, end)` are what a correct solver writes: the steps up to the last one known good
   * before the first step labelled wrong (a label ≥ 0.5, or a later step's, since a good step has a
   * good prefix), with their separators. The auxiliary next-token loss predicts only these: the
   * problem is given, not written, and a wrong step is not worth imitating.
   */
  correctText: readonly [number, number];
}

/** The last step known good before the first step labelled wrong (labels below 0.5), or -1. */
export function lastKnownGoodStep(labels: readonly number[]): number {
  const firstWrong = labels.findIndex((label) => label < 0.5);
  const end = firstWrong === -1 ? labels.length : firstWrong;
  for (let step = end - 1; step >= 0; step--) if (labels[step]! >= 0.5) return step;
  return -1;
}

type Pair = ReturnType<ProcessRM['tokenize']>;

/**
 * Token-level reads: at every token of the solution, whether the text up to its end is still what
 * a correct solution writes (every earlier step right, and this step right up to the token's last
 * character); at each step's read position, the step's own label. With `untilFirstError`, nothing
 * after the first wrong step's read position.
 */
function tokenLevelTargets(
  pair: Pair,
  record: StepRecord,
  correctPrefix: readonly number[],
  untilFirstError: boolean,
): { positions: number[]; targets: number[] } {
  const targets = new Map<number, number>();
  let rightSoFar = true;
  for (const [index, step] of pair.steps.entries()) {
    const [first, end] = step.tokenSpan;
    for (let position = first; position < end; position++) {
      const charactersIn = pair.offsets[position]![1] - step.charSpan[0];
      targets.set(position, rightSoFar && charactersIn <= correctPrefix[index]! ? 1 : 0);
    }
    for (let position = end; position < step.readTokenIndex; position++) targets.set(position, rightSoFar ? 1 : 0);
    if (step.readTokenIndex >= 0) targets.set(step.readTokenIndex, record.stepLabels[index]!);
    rightSoFar &&= correctPrefix[index] === record.steps[index]!.length && record.stepLabels[index]! >= 0.5;
    if (untilFirstError && !rightSoFar) break;
  }
  const positions = [...targets.keys()].sort((left, right) => left - right);
  return { positions, targets: positions.map((position) => targets.get(position)!) };
}

/**
 * Tokenizes a record with the PRM's recipe (the same layout scoring uses, so a trained model
 * is read exactly as it was trained). Returns why it was skipped instead when it cannot be
 * used: too long for the model, or no step with a target.
 */
export function toTrainingExample(prm: ProcessRM, record: StepRecord, policy: LabelPolicy): TrainingExample | { skipped: string } {
  let pair: Pair;
  try {
    pair = prm.tokenize({ problem: record.problem, steps: record.steps });
  } catch (error) {
    if (RewardLensError.isInstance(error)) return { skipped: `${error.code}: ${error.message}` };
    throw error;
  }
  if (pair.steps.length !== record.steps.length) return { skipped: `the layout found ${pair.steps.length} steps where the record has ${record.steps.length}` };
  const targets = trainingTargets(record, policy);
  if (targets.every(Number.isNaN)) return { skipped: 'no step has a label' };
  const reads =
    record.correctPrefix !== undefined
      ? tokenLevelTargets(pair, record, record.correctPrefix, policy.untilFirstError ?? true)
      : { positions: pair.readPositions, targets };
  const lastGood = lastKnownGoodStep(record.stepLabels);
  const start = pair.steps[0]!.tokenSpan[0];
  const end = lastGood >= 0 ? Math.max(pair.readPositions[lastGood]!, pair.steps[lastGood]!.tokenSpan[1] - 1) + 1 : start;
  return { record, inputIds: pair.inputIds, readPositions: reads.positions, targets: reads.targets, correctText: [Math.max(1, start), end] };
}
