import { RewardLensError } from './reward-lens-error.js';

/** A sequence longer than the model's positions, when truncation was not allowed. */
export class SequenceTooLongError extends RewardLensError {
  static readonly code = 'SEQUENCE_TOO_LONG';
  readonly length: number;
  readonly maxPositions: number;

  constructor(length: number, maxPositions: number) {
    super(
      SequenceTooLongError.code,
      `sequence of ${length} tokens is longer than the model's ${maxPositions} positions (pass truncation: 'left' to keep the end)`,
    );
    this.name = 'SequenceTooLongError';
    this.length = length;
    this.maxPositions = maxPositions;
  }

  static override isInstance(value: unknown): value is SequenceTooLongError {
    return RewardLensError.hasCode(value, SequenceTooLongError.code);
  }
}
