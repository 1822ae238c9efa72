import { aggregate, type Evidence, type Gauge, type PairMeta, type StepScores, type Trust } from '@reward-lens/core';

/** One record's scores with every label they carry, ready for the table or a JSON line. */
export interface ScoredRecord {
  /** The reward at the last step: the outcome score, equal to the last of `stepScores`. */
  outcome: number;
  stepScores: number[];
  steps: string[];
  aggregate: { name: string; value: number };
  meta: PairMeta;
  notes: string[];
  backend: string;
  gauge: Gauge;
  trust: Trust;
}

const pairNotePattern = /^pair (\d+): /;

/**
 * The notes that belong to pair `index` of a batch of `count`. Core lists a batch's notes
 * together: shared notes (which backend ran) as they are, per-pair notes prefixed `pair i: `,
 * and a batch of one unprefixed. Picking them apart gives each record the notes it would have had
 * scored alone, so output does not depend on how records happened to be batched.
 */
export function notesForPair(notes: readonly string[], index: number, count: number): string[] {
  if (count === 1) return [...notes];
  const picked: string[] = [];
  for (const note of notes) {
    const match = pairNotePattern.exec(note);
    if (match === null) picked.push(note);
    else if (Number(match[1]) === index) picked.push(note.slice(match[0].length));
  }
  return picked;
}

/** Splits a batch's step scores into one record per pair, with the chosen aggregate added. */
export function scoredRecordsFromEvidence(evidence: Evidence<StepScores>, backend: string, aggregateName: string): ScoredRecord[] {
  const count = evidence.value.curves.length;
  return evidence.value.curves.map((curve, index) => {
    const stepScores = Array.from(curve);
    return {
      outcome: stepScores[stepScores.length - 1]!,
      stepScores,
      steps: evidence.value.steps[index]!.map((step) => step.text),
      aggregate: { name: aggregateName, value: aggregate(curve, aggregateName) },
      meta: evidence.value.meta[index]!,
      notes: notesForPair(evidence.notes, index, count),
      backend,
      gauge: evidence.gauge,
      trust: evidence.trust,
    };
  });
}
