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
 * Tokenizes every input. With `onInvalid: 'report'`, an input that cannot be scored (malformed,
 * empty, too long) becomes an error entry and a placeholder pair with no steps, and the others go on.
 */
export function tokenizeInputs(
  inputs: readonly ScoringInput[],
  options: ScoringOptions,
  tokenizeOne: (input: NormalizedInput) => TokenizedPair,
): TokenizedInputs {
  if (!Array.isArray(inputs)) throw new InvalidInputError('expected a list of pairs');
  if (inputs.length === 2 && inputs.every((item) => typeof item === 'string')) {
    throw new InvalidInputError('expected a list of pairs; wrap a single [problem, solution] pair in a list: [[problem, solution]]');
  }
  const onInvalid = options.onInvalid ?? 'throw';
  if (onInvalid !== 'throw' && onInvalid !== 'report') {
    throw new InvalidInputError(`onInvalid must be 'throw' or 'report', got ${JSON.stringify(onInvalid)}`, { location: 'options.onInvalid' });
  }
  const batch: TokenizedBatch = { pairs: [], errors: [] };
  const normalized: (NormalizedInput | null)[] = [];
  const fail = (index: number, error: RewardLensError) => {
    if (onInvalid === 'throw') throw namingInput(error, index);
    batch.pairs[index] = unscoredPair(error);
    batch.errors[index] = error;
  };
  inputs.forEach((input, index) => {
    batch.pairs.push(unscoredPair(new InvalidInputError('not tokenized')));
    batch.errors.push(null);
    normalized.push(null);
    try {
      const checked = normalizeScoringInput(input, `pair ${index}`);
      normalized[index] = checked;
      batch.pairs[index] = tokenizeOne(checked);
    } catch (error) {
      if (!RewardLensError.isInstance(error)) throw error;
      fail(index, error);
    }
  });
  return { batch, normalized, fail };
}
