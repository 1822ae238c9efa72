import { verifySolution, type OrganismPolicy } from '@reward-lens/organism';

export interface PolicySettings {
  errorProbability: number;
  rescueProbability: number;
}

/** A sampled solution with the verifier's truth about it. */
export interface JudgedCandidate {
  steps: string[];
  /** The final answer is right. */
  finalCorrect: boolean;
  /** The final answer is right and no step is flawed. */
  processCorrect: boolean;
}

/** `count` solutions of `problem` from the policy (sample `i` seeded from `seed` and `i`), judged by the organism's verifier. */
export function sampleCandidates(policy: OrganismPolicy, problem: string, count: number, seed: number): JudgedCandidate[] {
  return policy.rollouts(problem, [], count, seed).map((rollout) => {
    const verification = verifySolution(problem, rollout.steps);
    return {
      steps: rollout.steps,
      finalCorrect: verification.finalAnswerCorrect,
      processCorrect: verification.finalAnswerCorrect && verification.firstErrorStep === -1,
    };
  });
}
