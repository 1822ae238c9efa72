/** What went wrong in one attempt: an HTTP status, no connection, no answer in time, or an answer that cannot be read. */
export type AttemptFailureKind = 'status' | 'network' | 'timeout' | 'response';

/**
 * One failed attempt of a remote request, and whether another attempt could succeed. The retry
 * loop (`withRetries`) turns the last one into the client's typed error.
 */
export class AttemptFailure extends Error {
  readonly kind: AttemptFailureKind;
  readonly retryable: boolean;
  /** The HTTP status, for `status` failures. */
  readonly status: number | undefined;
  /** The server's own message (`error.message`), when its body had one. */
  readonly serverMessage: string | undefined;
  /** How long the server asked to wait before retrying (`Retry-After`), when it said. */
  readonly waitMs: number | undefined;

  constructor(
    kind: AttemptFailureKind,
    message: string,
    options: { retryable: boolean; status?: number; serverMessage?: string; waitMs?: number; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AttemptFailure';
    this.kind = kind;
    this.retryable = options.retryable;
    this.status = options.status;
    this.serverMessage = options.serverMessage;
    this.waitMs = options.waitMs;
  }
}
