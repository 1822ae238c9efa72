import { RewardLensError } from '@reward-lens/spec';

/** A remote engine answered with an HTTP error; the message carries the server's own words. */
export class RemoteHttpError extends RewardLensError {
  static readonly code = 'REMOTE_HTTP';
  readonly url: string;
  readonly status: number;
  /** The server's message (vLLM's `error.message`), when its body had one. */
  readonly serverMessage: string | undefined;

  constructor(url: string, status: number, serverMessage: string | undefined, options?: { cause?: unknown; hint?: string }) {
    super(
      RemoteHttpError.code,
      `${url} answered HTTP ${status}${serverMessage ? `: ${serverMessage}` : ''}${options?.hint ? ` (${options.hint})` : ''}`,
      options,
    );
    this.name = 'RemoteHttpError';
    this.url = url;
    this.status = status;
    this.serverMessage = serverMessage;
  }

  static override isInstance(value: unknown): value is RemoteHttpError {
    return RewardLensError.hasCode(value, RemoteHttpError.code);
  }
}
