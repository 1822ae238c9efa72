import { checkScoringRecord, InvalidInputError, recordLabels, recordsFromEvidence, type ProcessRM, type ScoringInput } from '@reward-lens/core';

/** A record that cannot be scored, reported in its place while the others go on. */
export interface RecordError {
  code: string;
  message: string;
}

/**
 * How `POST /v1/score` reads and answers records. The server batches the inputs of concurrent
 * requests into one `score` call and answers each record with the object `score` gave for it (a
 * batch request labels each with its `index` first). `reward-lens serve` plugs in the command
 * line's own records, so the answer is exactly what `reward-lens score --json` prints.
 */
export interface RecordScorer {
  /** One record's shape checked: what to score, or its error. Fields other than the record's are ignored. */
  parse(value: unknown): { input: ScoringInput } | { error: RecordError };
  /** Scores inputs in one call (one dynamic batch); per input, its JSON-ready answer (scores, or `{ error }`). */
  score(prm: ProcessRM, inputs: readonly ScoringInput[], options: { aggregate: string }): Promise<Record<string, unknown>[]>;
}

/**
 * The library's default records: per record what `prm.stepScores` returns for its pair, as JSON
 * (`outcome`, `stepScores`, `steps`, `meta`, `notes`, `backend`, `gauge`, `trust`; a step that
 * left truncation cut off is `null`). No aggregate: that is a presentation the command line adds.
 */
export const stepScoreRecords: RecordScorer = {
  parse(value) {
    const checked = checkScoringRecord(value);
    return 'error' in checked ? { error: { code: InvalidInputError.code, message: checked.error } } : { input: checked.record };
  },
  async score(prm, inputs) {
    const evidence = await prm.stepScores(inputs, { onInvalid: 'report' });
    // Core's records, without the threshold (a presentation the command line adds), NaN as null for JSON.
    const { threshold: _threshold, ...labels } = recordLabels(prm, evidence.gauge);
    const records = recordsFromEvidence(evidence, labels);
    return records.map((record, index) => {
      const error = evidence.value.errors[index];
      if (error) return { error: { code: error.code, message: error.message } };
      const stepScores = record.stepScores.map((score) => (Number.isFinite(score) ? score : null));
      return { ...record, outcome: stepScores.at(-1) ?? null, stepScores };
    });
  },
};
