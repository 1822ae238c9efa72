import { RewardLensError } from '@reward-lens/core';

/** The remote engine does not serve the model asked for; `served` lists what it does serve. */
export class RemoteModelNotFoundError extends RewardLensError {
  static readonly code = 'REMOTE_MODEL_NOT_FOUND';
  readonly url: string;
  readonly model: string;
  readonly served: readonly string[];

  constructor(url: string, model: string, served: readonly string[]) {
    const list = served.length > 0 ? served.map((name) => JSON.stringify(name)).join(', ') : 'none';
    super(RemoteModelNotFoundError.code, `${url} does not serve model ${JSON.stringify(model)} (it serves: ${list})`);
    this.name = 'RemoteModelNotFoundError';
    this.url = url;
    this.model = model;
    this.served = served;
  }

  static override isInstance(value: unknown): value is RemoteModelNotFoundError {
    return RewardLensError.hasCode(value, RemoteModelNotFoundError.code);
  }
}
