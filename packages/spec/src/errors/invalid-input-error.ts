import { RewardLensError } from './reward-lens-error.js';

/** User input that cannot be processed: an empty solution, a malformed record, a bad option. */
export class InvalidInputError extends RewardLensError {
  static readonly code = 'INVALID_INPUT';
  /** Where the bad input is, when known (a field name, `line 3`, a file path). */
  readonly location: string | undefined;

  constructor(message: string, options?: { location?: string; cause?: unknown }) {
    super(InvalidInputError.code, options?.location ? `${options.location}: ${message}` : message, options);
    this.name = 'InvalidInputError';
    this.location = options?.location;
  }

  static override isInstance(value: unknown): value is InvalidInputError {
    return RewardLensError.hasCode(value, InvalidInputError.code);
  }
}
