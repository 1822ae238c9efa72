import { verifySolution } from '@reward-lens/organism';
import { createRulePrm } from '@reward-lens/search/testing';

/**
 * Where the truth is known, the best a PRM could do: the organism's verifier as a PRM. A step
 * scores 1 when the solution so far has no error, else 0 (ProcessBench's labels), read from the
 * text the PRM sees (the plain layout: the problem, a blank line, then one step per line).
 */
export function verifierRule(textSoFar: string): number {
  const split = textSoFar.indexOf('\n\n');
  if (split < 0) return 0;
  const steps = textSoFar
    .slice(split + 2)
    .split('\n')
    .map((step) => step.trim())
    .filter((step) => step !== '');
  if (steps.length === 0) return 0;
  try {
    return verifySolution(textSoFar.slice(0, split), steps).firstErrorStep === -1 ? 1 : 0;
  } catch {
    return 0;
  }
}

/** The verifier as a ProcessRM (a rule backend: every score known in advance, incremental prefixes included). */
export function createVerifierPrm() {
  return createRulePrm(verifierRule);
}
