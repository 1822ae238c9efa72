import { InvalidInputError, UnsupportedCapabilityError, hasCapability, type CharSpan, type ProcessRM } from '@reward-lens/core';

export interface DenseRewardsOptions {
  /**
   * `score` (default): g(p_k) at the last token of each step. `progress`: A_k = V_k - V_(k-1), the
   * step's change in value, so that a solution's rewards sum to V(s_1..K) - V(∅) (potential-based
   * shaping: the sum does not depend on how the solution is cut into steps).
   */
  kind?: 'score' | 'progress';
  /** g for `score`: e.g. `(p) => Math.log(p)` or `(p) => p - 0.5`. Default: the score itself. */
  transform?: (score: number, step: number) => number;
  /** V(∅) for `progress`: a number, or `read` (default): the PRM's reward at the last token before the first step (needs PREFIX_SCORES). */
  initialValue?: number | 'read';
}

export interface DenseRewards {
  /** One reward per token of the PRM's tokenization of the pair (`prm.tokenize`): zero except at each step's read token. */
  rewards: Float32Array;
  /** The token position of each step's reward (the step's read position). */
  positions: number[];
  /** The reward placed for each step. */
  stepRewards: number[];
  /** V_0 = V(∅), then V_1..V_K (the step scores). */
  values: number[];
  /** The solution's first token: `rewards.subarray(solutionStart)` covers the response, as an RL trainer masks it. */
  solutionStart: number;
  /** Per step, where it ends, in characters from the start of the solution's first step (to place rewards on another tokenizer's tokens with `rewardsAtCharacters`). */
  stepEnds: number[];
}

/**
 * Per-token rewards for RL from a PRM: each step's reward at its last token (the position the
 * PRM reads, as `prm.tokenize` reports it), zero elsewhere.
 *
 * @example
 * const { rewards } = await denseRewards(prm, { problem, steps }, { kind: 'progress' });
 */
export async function denseRewards(
  prm: ProcessRM,
  input: { problem: string; steps: readonly string[] } | { problem: string; solution: string },
  options: DenseRewardsOptions = {},
): Promise<DenseRewards> {
  const kind = options.kind ?? 'score';
  const scoringInput = 'steps' in input ? { problem: input.problem, steps: [...input.steps] } : input;
  const pair = prm.tokenize(scoringInput);
  const positions = pair.readPositions;
  if (positions.some((position) => position < 0)) throw new InvalidInputError('dense rewards need every step scored; left truncation cut some off');
  const needsRead = kind === 'progress' && (options.initialValue ?? 'read') === 'read';
  let stepScores: number[];
  let initial = Number.NaN;
  if (needsRead) {
    if (!hasCapability(prm.caps, 'PREFIX_SCORES')) {
      throw new UnsupportedCapabilityError({
        capability: 'PREFIX_SCORES',
        backend: prm.source.name,
        operation: 'reading V(∅) for progress rewards (pass a numeric initialValue instead)',
      });
    }
    const curve = (await prm.prefixScores([scoringInput])).value.curves[0]!;
    stepScores = positions.map((position) => curve[position]!);
    const before = pair.steps[0]!.tokenSpan[0] - 1;
    if (before < 0) throw new InvalidInputError('V(∅) is read at the token before the first step, and there is none: pass a numeric initialValue');
    initial = curve[before]!;
  } else {
    stepScores = Array.from((await prm.stepScores([scoringInput])).value.curves[0]!);
    if (kind === 'progress') initial = options.initialValue as number;
  }
  const values = [initial, ...stepScores];
  const transform = options.transform ?? ((score: number) => score);
  const stepRewards = kind === 'score' ? stepScores.map((score, step) => transform(score, step)) : stepScores.map((score, step) => score - values[step]!);
  const rewards = new Float32Array(pair.inputIds.length);
  positions.forEach((position, step) => {
    rewards[position] = stepRewards[step]!;
  });
  const solutionChar = pair.steps[0]!.charSpan[0];
  return {
    rewards,
    positions: [...positions],
    stepRewards,
    values,
    solutionStart: pair.steps[0]!.tokenSpan[0],
    stepEnds: pair.steps.map((step) => step.charSpan[1] - solutionChar),
  };
}

/**
 * Places step rewards on another tokenizer's tokens (the policy's, when it is not the PRM's): each
 * step's reward goes to the token holding the step's last character. `offsets` are that
 * tokenizer's character spans over the same solution text `stepEnds` counts in.
 */
export function rewardsAtCharacters(stepRewards: readonly number[], stepEnds: readonly number[], offsets: readonly CharSpan[]): Float32Array {
  const rewards = new Float32Array(offsets.length);
  stepRewards.forEach((reward, step) => {
    const last = stepEnds[step]! - 1;
    const token = offsets.findIndex(([start, end]) => start <= last && last < end);
    if (token < 0) throw new InvalidInputError(`no token covers character ${last}, where step ${step} ends`);
    rewards[token] = (rewards[token] ?? 0) + reward;
  });
  return rewards;
}
