import { SequenceTooLongError } from '@reward-lens/core';
import type { AnswerChecker } from '../answers/answer-checker.js';
import { statesAnswer } from '../policy/complete-solutions.js';
import type { StepPolicy, StepProposal } from '../policy/step-policy.js';
import type { PrefixScorer, SearchNode } from './prefix-scorer.js';
import type { SearchCounts, SolutionEnd } from './search-types.js';

/** One scored candidate: a child node, and whether (and why) its path is finished. */
export interface Expansion {
  parent: number;
  node: SearchNode;
  /** Null while the path goes on. */
  end: SolutionEnd | null;
  /** Order among all of the iteration's candidates (parent, then proposal): the tie-breaker. */
  order: number;
}

/** Parents whose proposals were all empty (or did not fit the PRM): their path ends as it is. */
export interface EndedParent {
  parent: number;
  end: SolutionEnd;
}

export interface ExpandContext {
  problem: string;
  policy: StepPolicy;
  scorer: PrefixScorer;
  checker: AnswerChecker;
  counts: SearchCounts;
  notes: string[];
  signal?: AbortSignal;
}

function endOf(proposal: StepProposal, checker: AnswerChecker): SolutionEnd | null {
  if (statesAnswer(proposal.text, checker)) return 'answer';
  if (proposal.end === 'eos') return 'eos';
  if (proposal.end === 'length') return 'length';
  return null;
}

/**
 * One iteration's expansion: `counts[i]` proposals for each parent from the policy (seeded by
 * `seeds[i]`), distinct non-empty ones scored as children of their parent.
 */
export async function expandNodes(
  context: ExpandContext,
  parents: readonly SearchNode[],
  counts: readonly number[],
  seeds: readonly number[],
): Promise<{ expansions: Expansion[]; ended: EndedParent[] }> {
  const { counts: spent } = context;
  if (context.signal?.aborted) throw context.signal.reason;
  const started = performance.now();
  const proposals = await context.policy.nextSteps(
    parents.map((parent, index) => ({ problem: context.problem, steps: parent.steps, count: counts[index]!, seed: seeds[index]! })),
    context.signal ? { signal: context.signal } : {},
  );
  spent.generationMs += performance.now() - started;
  spent.policyCalls++;
  const groups = proposals.map((row, parent) => {
    spent.proposals += row.length;
    for (const proposal of row) spent.generatedTokens += proposal.tokens;
    const seen = new Map<string, StepProposal>();
    for (const proposal of row) if (proposal.text !== '' && !seen.has(proposal.text)) seen.set(proposal.text, proposal);
    return { parent, unique: [...seen.values()] };
  });
  const ended: EndedParent[] = [];
  const fitting: typeof groups = [];
  let scored: SearchNode[][];
  try {
    scored = await context.scorer.extend(
      context.problem,
      groups.map((group) => ({ parent: parents[group.parent]!, candidates: group.unique.map((proposal) => proposal.text) })),
    );
    fitting.push(...groups);
  } catch (error) {
    if (!SequenceTooLongError.isInstance(error)) throw error;
    // Some path outgrew the PRM's positions: score parent by parent, and end the paths that do not fit.
    scored = [];
    for (const group of groups) {
      try {
        scored.push(
          ...(await context.scorer.extend(context.problem, [{ parent: parents[group.parent]!, candidates: group.unique.map((proposal) => proposal.text) }])),
        );
        fitting.push(group);
      } catch (inner) {
        if (!SequenceTooLongError.isInstance(inner)) throw inner;
        context.notes.push(`a path reached the PRM's ${inner.maxPositions} positions after ${parents[group.parent]!.steps.length} steps and ended there`);
        ended.push({ parent: group.parent, end: 'length' });
      }
    }
  }
  const expansions: Expansion[] = [];
  let order = 0;
  fitting.forEach((group, index) => {
    const children = scored[index]!;
    if (group.unique.length === 0) ended.push({ parent: group.parent, end: 'eos' });
    group.unique.forEach((proposal, position) => {
      expansions.push({ parent: group.parent, node: children[position]!, end: endOf(proposal, context.checker), order: order++ });
    });
  });
  return { expansions, ended };
}
