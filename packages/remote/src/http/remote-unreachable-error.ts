import { RewardLensError } from '@reward-lens/core';

/** A remote engine that could not be reached (refused, reset, no route) after every retry. */
export class RemoteUnreachableError extends RewardLensError {
  static readonly code = 'REMOTE_UNREACHABLE';
  readonly url: string;
  readonly attempts: number;

  constructor(url: string, attempts: number, options?: { cause?: unknown }) {
    const reason = options?.cause instanceof Error ? describeCause(options.cause) : undefined;
    super(
      RemoteUnreachableError.code,
      `cannot reach ${url}${reason ? ` (${reason})` : ''} after ${attempts} attempt${attempts === 1 ? '' : 's'}; is the server running?`,
      options,
    );
    this.name = 'RemoteUnreachableError';
    this.url = url;
    this.attempts = attempts;
  }

  static override isInstance(value: unknown): value is RemoteUnreachableError {
    return RewardLensError.hasCode(value, RemoteUnreachableError.code);
  }
}

/** fetch's own message is "fetch failed"; the system error under it says what happened. */
function describeCause(error: Error): string {
  const inner = error.cause;
  if (inner instanceof Error) {
    const code = (inner as Error & { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${inner.message}` : inner.message;
  }
  return error.message;
}
