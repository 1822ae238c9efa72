/**
 * The organism policy's chance of reaching the right final answer, in closed form. The policy
 * is a two-state Markov chain over "the running quantity is right" (on track) and "it is not"
 * (off track), one transition per step written (each remaining operation, then the answer):
 * - on track: a step is wrong with probability p, which takes the solution off track;
 * - off track: a step is wrong with probability p, and a wrong step is, with probability ρ, a
 *   compensating one that lands back on the true quantity (so off → on with probability pρ).
 * Correct steps keep the state (every operation is one-to-one, so a correct step on a wrong
 * quantity gives a wrong quantity), and the answer is right exactly when the chain ends on track.
 * With λ = 1 − p(1 + ρ) and π = ρ / (1 + ρ) (the chain's stationary share on track), after n steps:
 *   P(right | on track now)  = π + (1 − π) λⁿ
 *   P(right | off track now) = π (1 − λⁿ)
 * With ρ = 0 these are (1 − p)ⁿ and 0.
 */
export function policySuccessProbability(errorProbability: number, rescueProbability: number, remainingSteps: number, onTrack: boolean): number {
  const stationary = rescueProbability / (1 + rescueProbability);
  const decay = (1 - errorProbability * (1 + rescueProbability)) ** remainingSteps;
  return onTrack ? stationary + (1 - stationary) * decay : stationary * (1 - decay);
}
