import type { CandidateSolution } from './score-candidates.js';

/** One problem to rerank: its candidates, and the reference answer when the record gives one. */
export interface RerankRecord {
  problem: string;
  candidates: CandidateSolution[];
  reference?: string;
}

/**
 * A reranking record (`{"problem", "candidates": [solution, ...], "answer" or "reference"}`, a
 * solution being one text or an array of steps) as `rerank`'s input, or what is wrong with it, in
 * words for the user: a bad record is reported as data and the run goes on.
 *
 * @example
 * readRerankRecord({ problem: 'What is 2 + 3?', candidates: ['The answer is 5', ['2 + 3 = 6', 'The answer is 6']], answer: 5 });
 * // { problem: 'What is 2 + 3?', candidates: [...], reference: '5' }
 */
export function readRerankRecord(value: Record<string, unknown>): RerankRecord | string {
  if (typeof value.problem !== 'string') return '"problem" must be a string';
  if (!Array.isArray(value.candidates) || value.candidates.length === 0) return '"candidates" must be a non-empty array of solutions';
  for (const [index, candidate] of value.candidates.entries()) {
    const ok = typeof candidate === 'string' || (Array.isArray(candidate) && candidate.every((step) => typeof step === 'string'));
    if (!ok) return `candidate ${index} must be a string or an array of strings`;
  }
  const reference = value.answer ?? value.reference;
  if (reference !== undefined && typeof reference !== 'string' && typeof reference !== 'number') return '"answer" must be a string or a number';
  return { problem: value.problem, candidates: value.candidates as CandidateSolution[], ...(reference !== undefined ? { reference: String(reference) } : {}) };
}
