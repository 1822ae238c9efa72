import { InvalidInputError, type DomainCheck } from '@reward-lens/core';
import { parseProblem, parseStep } from '@reward-lens/organism';

function quoted(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > 60 ? `${line.slice(0, 59)}…` : line);
}

/**
 * The default PRM's grammar check: the organism's own parser reads the problem and every step.
 * The first sentence it cannot read is the reason a record is outside the model's domain. It
 * checks the language, not the arithmetic (a wrong result is in the language: the PRM's to find).
 */
export const organismGrammarCheck: DomainCheck = {
  name: 'organism grammar',
  check({ problem, steps }) {
    try {
      parseProblem(problem);
    } catch (error) {
      if (!InvalidInputError.isInstance(error)) throw error;
      return `the problem is not in the organism's language (${error.message})`;
    }
    for (const [index, step] of steps.entries()) {
      const parsed = parseStep(step);
      if (parsed.kind === 'unparseable') return `step ${index + 1} ${quoted(step)} is not in the organism's language: ${parsed.reason}`;
    }
    return undefined;
  },
};
