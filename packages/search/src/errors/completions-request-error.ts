import { RewardLensError } from '@reward-lens/core';

/**
 * A request to an OpenAI-compatible completions server failed for good: a status that retrying
 * cannot fix (400, 401, 404, ...), or a retryable failure (429, 5xx, timeout, a dropped connection)
 * that outlasted the retries. `cause` is the last failure.
 */
export class CompletionsRequestError extends RewardLensError {
  static readonly code = 'COMPLETIONS_REQUEST_FAILED';
  /** The last HTTP status; null when no response came (timeout, connection error). */
  readonly status: number | null;
  /** Attempts made, the first included. */
  readonly attempts: number;

  constructor(message: string, options: { status: number | null; attempts: number; cause?: unknown }) {
    super(CompletionsRequestError.code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CompletionsRequestError';
    this.status = options.status;
    this.attempts = options.attempts;
  }

  static override isInstance(value: unknown): value is CompletionsRequestError {
    return RewardLensError.hasCode(value, CompletionsRequestError.code);
  }
}
