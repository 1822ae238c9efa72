import { InvalidInputError, RewardLensError } from '@reward-lens/spec';

import { normalizeScoringInput, type NormalizedInput, type ScoringInput } from './scoring-input.js';
import { unscoredPair, type ScoringOptions, type TokenizedBatch } from './tokenized-batch.js';
import type { TokenizedPair } from './tokenize-pair.js';

/** The error with the failing input's position in its message (`pair 3: ...`), as every batch error names it. */
export function namingInput(error: RewardLensError, index: number): RewardLensError {
  const location = `pair ${index}`;
  if (!error.message.startsWith(`${location}:`)) error.message = `${location}: ${error.message}`;
  return error;
}

/** A batch of tokenized inputs with what they were, and how to record an input that fails later. */
export interface TokenizedInputs {
  batch: TokenizedBatch;
  /** Per input, its checked form (null where it was malformed). */
  normalized: (NormalizedInput | null)[];
  /** Records a later failure of input `index`: thrown (naming it) or reported, as `onInvalid` says. */
  fail(index: number, error: RewardLensError): void;
}

/**
 * The inputs checked before anything is tokenized: per input, its normalized form, or (null) the
 * error it gave. Errors wait in `pending` until `tokenizeChecked` records them in input order, so
 * that `onInvalid: 'throw'` names the first failing input whichever stage found its fault.
 */
export interface CheckedInputs {
  normalized: (NormalizedInput | null)[];
  pending: (RewardLensError | undefined)[];
  onInvalid: 'throw' | 'report';
}

/** Checks the list and each input's shape (see `tokenizeChecked`). */
export function checkInputs(inputs: readonly ScoringInput[], options: ScoringOptions): CheckedInputs {
  if (!Array.isArray(inputs)) throw new InvalidInputError('expected a list of pairs');
  if (inputs.length === 2 && inputs.every((item) => typeof item === 'string')) {
    throw new InvalidInputError('expected a list of pairs; wrap a single [problem, solution] pair in a list: [[problem, solution]]');
  }
  const onInvalid = options.onInvalid ?? 'throw';
  if (onInvalid !== 'throw' && onInvalid !== 'report') {
    throw new InvalidInputError(`onInvalid must be 'throw' or 'report', got ${JSON.stringify(onInvalid)}`, { location: 'options.onInvalid' });
  }
  const normalized: (NormalizedInput | null)[] = [];
  const pending: (RewardLensError | undefined)[] = [];
  inputs.forEach((input, index) => {
    normalized.push(null);
    pending.push(undefined);
    try {
      normalized[index] = normalizeScoringInput(input, `pair ${index}`);
    } catch (error) {
      if (!RewardLensError.isInstance(error)) throw error;
      pending[index] = error;
    }
  });
  return { normalized, pending, onInvalid };
}

/**
 * Tokenizes the checked inputs in order. With `onInvalid: 'report'`, an input that cannot be
 * scored (malformed, empty, too long) becomes an error entry and a placeholder pair with no steps,
 * and the others go on.
 */
export function tokenizeChecked(checked: CheckedInputs, tokenizeOne: (input: NormalizedInput, index: number) => TokenizedPair): TokenizedInputs {
  const batch: TokenizedBatch = { pairs: [], errors: [] };
  const { normalized } = checked;
  const fail = (index: number, error: RewardLensError) => {
    if (checked.onInvalid === 'throw') throw namingInput(error, index);
    batch.pairs[index] = unscoredPair(error);
    batch.errors[index] = error;
  };
  normalized.forEach((input, index) => {
    batch.pairs.push(unscoredPair(new InvalidInputError('not tokenized')));
    batch.errors.push(null);
    try {
      const pending = checked.pending[index];
      if (pending !== undefined) throw pending;
      batch.pairs[index] = tokenizeOne(input!, index);
    } catch (error) {
      if (!RewardLensError.isInstance(error)) throw error;
      fail(index, error);
    }
  });
  return { batch, normalized, fail };
}
