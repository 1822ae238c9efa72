import type { AnswerMethod } from '../answers/extract-answer.js';

/** One candidate solution, scored by a PRM, with its final answer. */
export interface ScoredCandidate {
  /** Its position in the input. */
  index: number;
  /** Step scores (NaN for steps that left truncation cut off); empty when the candidate could not be scored. */
  stepScores: number[];
  /** The step scores aggregated into one; null when the candidate could not be scored. */
  score: number | null;
  /** The final answer as written; null when none was found. */
  answer: string | null;
  answerMethod: AnswerMethod | null;
  /** The key equivalent answers share (`AnswerChecker.normalize`). */
  normalized: string | null;
  /** Why the candidate has no score (malformed, empty, longer than the model). */
  error?: { code: string; message: string };
}
