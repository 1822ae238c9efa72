import { InvalidInputError } from '@reward-lens/core';

/** One PRMBench record: a PRM800K solution with errors injected at known steps. */
export interface PrmBenchRecord {
  idx: string;
  classification: string;
  question: string;
  /** The solution with the injected errors. */
  steps: string[];
  /** 0-based indices of the modified (erroneous) steps (the file's `error_steps` are 1-based); some published ones lie past the last step. */
  errorSteps: number[];
  originalQuestion: string;
  originalSteps: string[];
}

/** A sample PRMBench scores: a modified solution, or (`classification` `correct`) an original one. */
export interface PrmBenchSample {
  id: string;
  idx: string;
  classification: string;
  question: string;
  steps: string[];
  errorSteps: number[];
}

function stringList(value: unknown, field: string, location: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((entry) => typeof entry === 'string')) {
    throw new InvalidInputError(`"${field}" must be a non-empty array of strings`, { location });
  }
  return value as string[];
}

/** Reads one line of PRMBench's JSONL (`modified_process`, 1-based `error_steps`, `classification`, `original_process`). */
export function parsePrmBenchRecord(value: unknown, location: string): PrmBenchRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidInputError('a PRMBench record must be a JSON object', { location });
  const record = value as Record<string, unknown>;
  if (typeof record.idx !== 'string' && typeof record.idx !== 'number') throw new InvalidInputError('"idx" must be a string or a number', { location });
  if (typeof record.classification !== 'string') throw new InvalidInputError('"classification" must be a string', { location });
  const steps = stringList(record.modified_process, 'modified_process', location);
  const originalSteps = stringList(record.original_process, 'original_process', location);
  const question = record.modified_question ?? record.question;
  if (typeof question !== 'string') throw new InvalidInputError('"modified_question" must be a string', { location });
  const originalQuestion = typeof record.original_question === 'string' ? record.original_question : question;
  const errorSteps = record.error_steps;
  // Some published records name steps past the end of their solution; PRMBench keeps them (they never match a step), and so does this.
  if (!Array.isArray(errorSteps) || !errorSteps.every((step) => Number.isInteger(step) && step >= 1)) {
    throw new InvalidInputError('"error_steps" must list 1-based step numbers', { location });
  }
  return {
    idx: String(record.idx),
    classification: record.classification,
    question,
    steps,
    errorSteps: (errorSteps as number[]).map((step) => step - 1),
    originalQuestion,
    originalSteps,
  };
}

/**
 * The samples PRMBench scores from its records, as its task loader builds them
 * (`mr_eval/tasks/prmtest_classified_subset400/task.py`): every record's modified solution,
 * once per (classification, idx), and one `correct` sample (the original solution, no error steps)
 * per idx that has a `redundency` record.
 */
export function* prmBenchSamples(records: Iterable<PrmBenchRecord>): Generator<PrmBenchSample> {
  const seen = new Set<string>();
  for (const record of records) {
    if (record.classification === 'redundency') {
      const id = `correct_${record.idx}`;
      if (!seen.has(id)) {
        seen.add(id);
        yield { id, idx: record.idx, classification: 'correct', question: record.originalQuestion, steps: record.originalSteps, errorSteps: [] };
      }
    }
    const id = `${record.classification}_${record.idx}`;
    if (seen.has(id)) continue;
    seen.add(id);
    yield { id, idx: record.idx, classification: record.classification, question: record.question, steps: record.steps, errorSteps: record.errorSteps };
  }
}
