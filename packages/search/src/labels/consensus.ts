import type { ProcessRM } from '@reward-lens/core';
import type { LabelInput, StepLabels } from './label-types.js';

/** Per-step verdicts (true: the step is right) from any source: a rule, an LLM judge, a PRM. */
export type StepJudge = (problem: string, steps: readonly string[]) => readonly boolean[] | Promise<readonly boolean[]>;

export interface ConsensusResult {
  /** Whether to keep the solution as training data. */
  keep: boolean;
  /** How many leading steps to keep (all of the labelled ones when `keep` in `solution` mode). */
  keptSteps: number;
  /** Per labelled step, whether the MC label and the judge agree. */
  agree: boolean[];
  judgeFirstError: number | null;
}

/**
 * Consensus filtering of MC labels with a judge. `solution` (default; Qwen2.5-Math-PRM's rule):
 * keep a solution only when the MC first error and the judge's first error are the same step (or
 * neither finds one). `prefix`: keep the leading steps on which both agree (the rest are dropped,
 * so what is kept is still a prefix of the solution, as a PRM dataset row must be).
 */
export async function consensusFilter(
  input: LabelInput,
  labels: StepLabels,
  judge: StepJudge,
  mode: 'solution' | 'prefix' = 'solution',
): Promise<ConsensusResult> {
  const verdicts = await judge(input.problem, input.steps);
  if (verdicts.length !== input.steps.length) throw new RangeError(`the judge gave ${verdicts.length} verdicts for ${input.steps.length} steps`);
  const agree = labels.hard.map((label, index) => label === verdicts[index]);
  const firstFalse = verdicts.findIndex((verdict) => !verdict);
  const judgeFirstError = firstFalse < 0 ? null : firstFalse;
  if (mode === 'solution') {
    const keep = labels.hard.length > 0 && judgeFirstError === labels.firstError;
    return { keep, keptSteps: keep ? labels.hard.length : 0, agree, judgeFirstError };
  }
  const firstDisagreement = agree.indexOf(false);
  const keptSteps = firstDisagreement < 0 ? agree.length : firstDisagreement;
  return { keep: keptSteps > 0, keptSteps, agree, judgeFirstError };
}

/** A PRM as a judge: a step is right when its score is at least `threshold`. */
export function prmJudge(prm: ProcessRM, threshold: number): StepJudge {
  return async (problem, steps) => {
    const evidence = await prm.stepScores([{ problem, steps: [...steps] }]);
    return Array.from(evidence.value.curves[0]!, (score) => score >= threshold);
  };
}
