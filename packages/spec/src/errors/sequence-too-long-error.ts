import { RewardLensError } from './reward-lens-error.js';

/** A sequence longer than the model's positions, when truncation was not allowed. */
export class SequenceTooLongError extends RewardLensError {
  static readonly code = 'SEQUENCE_TOO_LONG';
  readonly length: number;
  readonly maxPositions: number;

  /** True when `length` is a lower bound: the text was refused before it was tokenized whole. */
  readonly lengthIsLowerBound: boolean;

  constructor(length: number, maxPositions: number, options: { lowerBoundFromCharacters?: number } = {}) {
    const counted =
      options.lowerBoundFromCharacters === undefined ? `${length} tokens` : `at least ${length} tokens (${options.lowerBoundFromCharacters} characters)`;
    super(SequenceTooLongError.code, `sequence of ${counted} is longer than the model's ${maxPositions} positions (pass truncation: 'left' to keep the end)`);
    this.lengthIsLowerBound = options.lowerBoundFromCharacters !== undefined;
    this.name = 'SequenceTooLongError';
    this.length = length;
    this.maxPositions = maxPositions;
  }

  static override isInstance(value: unknown): value is SequenceTooLongError {
    return RewardLensError.hasCode(value, SequenceTooLongError.code);
  }
}
