import type { CandidateTruth } from '../examples/organism-examples.js';
import { formatScore } from '../scoring/bar-scale.js';
import type { Comparison } from '../scoring/compare-candidates.js';
import { element, replaceChildren } from './element.js';

function truthText(truth: CandidateTruth | null | undefined): string {
  if (!truth) return 'unknown';
  if (truth.firstErrorStep === -1) return 'correct';
  return `${truth.finalAnswerCorrect ? 'right answer' : 'wrong answer'}, first error at step ${truth.firstErrorStep + 1}`;
}

/**
 * The candidates ranked as best-of-N ranks them (highest aggregated score first, `data-candidate`
 * and `data-score` per row) and the weighted vote's answers (summed scores, `data-answer`,
 * `data-total`), with each method's pick and, for organism problems, what the verifier says.
 */
export function renderComparison(container: HTMLElement, comparison: Comparison, truth: readonly (CandidateTruth | null)[], aggregateName: string): void {
  const { result } = comparison;
  const byIndex = new Map(result.candidates.map((candidate) => [candidate.index, candidate]));
  const bestRows = comparison.bestOfNOrder.map((index, rank) => {
    const candidate = byIndex.get(index)!;
    const picked = index === result.picks['best-of-n'];
    return element(
      'tr',
      { 'data-candidate': index, 'data-score': String(candidate.score), class: picked ? 'picked' : undefined },
      element('td', {}, String(rank + 1)),
      element('th', { scope: 'row' }, `Candidate ${index + 1}`, picked ? element('span', { class: 'badge badge-pick' }, 'best-of-N pick') : null),
      element('td', {}, candidate.answer ?? 'no answer'),
      element('td', { class: 'number' }, candidate.score === null ? (candidate.error?.message ?? 'not scored') : formatScore(candidate.score)),
      element('td', {}, candidate.stepScores.map(formatScore).join(' · ')),
      element('td', {}, truthText(truth[index])),
    );
  });
  const voteRows = result.votes.map((vote, rank) =>
    element(
      'tr',
      { 'data-answer': vote.normalized, 'data-total': String(vote.total), class: rank === 0 ? 'picked' : undefined },
      element('td', {}, String(rank + 1)),
      element('th', { scope: 'row' }, vote.normalized, rank === 0 ? element('span', { class: 'badge badge-pick' }, 'weighted-vote winner') : null),
      element('td', { class: 'number' }, formatScore(vote.total)),
      element('td', { class: 'number' }, String(vote.count)),
      element('td', {}, vote.candidates.map((index) => index + 1).join(', ')),
    ),
  );
  const weightedPick = result.picks['weighted-vote'];
  replaceChildren(
    container,
    element(
      'p',
      { class: 'compare-picks', 'data-best-of-n': String(result.picks['best-of-n']), 'data-weighted-vote': String(weightedPick) },
      `Best-of-N picks candidate ${(result.picks['best-of-n'] ?? -1) + 1}; the weighted vote picks candidate ${(weightedPick ?? -1) + 1} (answer ${result.votes[0]?.normalized ?? 'none'}). `,
      `Candidates scored by ${aggregateName} of their steps in ${Math.round(comparison.elapsedMs)} ms.`,
    ),
    element(
      'table',
      { class: 'ranking', 'data-ranking': 'best-of-n' },
      element('caption', {}, `Best-of-N: candidates by ${aggregateName} step score, highest first`),
      element(
        'thead',
        {},
        element('tr', {}, ...['Rank', 'Candidate', 'Answer', 'Score', 'Step scores', 'Verifier'].map((label) => element('th', { scope: 'col' }, label))),
      ),
      element('tbody', {}, ...bestRows),
    ),
    element(
      'table',
      { class: 'ranking', 'data-ranking': 'weighted-vote' },
      element('caption', {}, 'Weighted vote: answers by the sum of their candidates’ scores'),
      element(
        'thead',
        {},
        element('tr', {}, ...['Rank', 'Answer', 'Summed score', 'Candidates', 'Which'].map((label) => element('th', { scope: 'col' }, label))),
      ),
      element('tbody', {}, ...voteRows),
    ),
    result.candidates.some((candidate) => (candidate.score ?? 0) < 0)
      ? element(
          'p',
          { class: 'hint' },
          'Some scores are negative (raw value-head outputs, not probabilities): a weighted vote sums scores as they are, so here more candidates can mean a lower total. With a PRM that gives probabilities the sum weighs each answer by how sure the model is.',
        )
      : null,
    element(
      'details',
      { class: 'notes' },
      element('summary', {}, 'Notes from the SDK'),
      element('ul', {}, ...result.notes.map((note) => element('li', {}, note))),
    ),
  );
}
