import { RewardLensError } from '@reward-lens/core';

/** A remote server answered with an HTTP error (one retrying cannot fix, or one that outlasted the retries); the message carries the server's own words. */
export class RemoteHttpError extends RewardLensError {
  static readonly code = 'REMOTE_HTTP';
  readonly url: string;
  readonly status: number;
  /** The server's message (vLLM's `error.message`), when its body had one. */
  readonly serverMessage: string | undefined;
  /** Attempts made, the first included. */
  readonly attempts: number;

  constructor(url: string, status: number, serverMessage: string | undefined, options?: { cause?: unknown; hint?: string; attempts?: number }) {
    super(
      RemoteHttpError.code,
      `${url} answered HTTP ${status}${serverMessage ? `: ${serverMessage}` : ''}${options?.hint ? ` (${options.hint})` : ''}`,
      options,
    );
    this.name = 'RemoteHttpError';
    this.url = url;
    this.status = status;
    this.serverMessage = serverMessage;
    this.attempts = options?.attempts ?? 1;
  }

  static override isInstance(value: unknown): value is RemoteHttpError {
    return RewardLensError.hasCode(value, RemoteHttpError.code);
  }
}
