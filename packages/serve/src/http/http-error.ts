import type { VllmErrorResponse } from '@reward-lens/remote';

/**
 * A request the server answers with an error status. The body is vLLM's error shape
 * (`{ error: { message, type, param, code } }`), so clients written for vLLM read it unchanged.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly type: string;
  readonly headers: Record<string, string>;

  constructor(status: number, type: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.type = type;
    this.headers = headers;
  }

  body(): VllmErrorResponse {
    return { error: { message: this.message, type: this.type, param: null, code: this.status } };
  }
}
