import { createOrganism, createOrganismPolicy, verifySolution, type OrganismItem } from '@reward-lens/organism';
import type { DemoExample } from './demo-example.js';

/** The organism the examples come from: seed 0, short solutions. */
const organism = createOrganism({ seed: 0, steps: [3, 5], maxNumber: 60 });

function toExample(item: OrganismItem): DemoExample {
  const kind = item.errorKind === null ? 'correct' : `${item.errorKind} at step ${item.firstErrorStep + 1}`;
  return {
    id: item.id,
    group: 'organism',
    title: `Organism ${item.id.replace(/^organism-/, '')}: ${kind}${item.errorKind !== null && item.finalAnswerCorrect ? ', right answer anyway' : ''}`,
    problem: item.problem,
    solution: item.steps.join('\n'),
    firstError: item.firstErrorStep,
    labelNote:
      item.firstErrorStep === -1
        ? 'generated correct; the verifier finds no error'
        : `an injected ${item.errorKind} error; the verifier finds the first error at step ${item.firstErrorStep + 1}`,
  };
}

/** The kinds the first three examples show, in order: an arithmetic slip first, as the quick start's. */
const exampleKinds = ['wrong-result', 'wrong-copy', 'wrong-operation'] as const;

/**
 * Organism problems with and without errors, the same on every machine: the first item of seed 0
 * with each of `exampleKinds` (a wrong result first), then the first two correct ones.
 */
export function organismExamples(): DemoExample[] {
  const withErrors = new Map<string, OrganismItem>();
  const correct: OrganismItem[] = [];
  for (let index = 0; index < 400 && (withErrors.size < exampleKinds.length || correct.length < 2); index++) {
    const item = organism.item(index);
    if (item.errorKind === null) {
      if (correct.length < 2) correct.push(item);
    } else if ((exampleKinds as readonly string[]).includes(item.errorKind) && !withErrors.has(item.errorKind)) {
      withErrors.set(item.errorKind, item);
    }
  }
  return [...exampleKinds.flatMap((kind) => withErrors.get(kind) ?? []), ...correct].map(toExample);
}

/** Candidates for the compare view: one organism problem and N solutions its policy writes, each checked by the verifier. */
export interface CandidateSet {
  problem: string;
  candidates: string[];
  /** Per candidate: whether its final answer is right, and its first error (-1 none), as the verifier reads the text. */
  truth: (CandidateTruth | null)[];
}

/**
 * `count` solutions of organism item `index`'s problem, sampled by the organism's policy (each
 * step wrong with probability 0.1, seeded): for item 2, three right and three wrong, some answers
 * repeated, as best-of-N and a weighted vote see them.
 */
export function organismCandidates(index = 2, count = 6): CandidateSet {
  const { problem } = organism.item(index);
  const policy = createOrganismPolicy({ errorProbability: 0.1 });
  const candidates = policy.rollouts(problem, [], count, 2).map((rollout) => rollout.steps.join('\n'));
  return { problem, candidates, truth: candidates.map((candidate) => verifyCandidate(problem, candidate)) };
}

export interface CandidateTruth {
  finalAnswerCorrect: boolean;
  firstErrorStep: number;
}

/** What the organism's verifier reads in a candidate (texts a user edited too); null when the problem is not in the organism's language. */
export function verifyCandidate(problem: string, candidate: string): CandidateTruth | null {
  try {
    const verification = verifySolution(
      problem,
      candidate.split('\n').filter((line) => line.trim() !== ''),
    );
    return { finalAnswerCorrect: verification.finalAnswerCorrect, firstErrorStep: verification.firstErrorStep };
  } catch {
    return null;
  }
}
