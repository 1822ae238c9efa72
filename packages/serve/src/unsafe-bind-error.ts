import { RewardLensError } from '@reward-lens/core';

/** Listening beyond loopback without an API key, when that was not explicitly allowed. */
export class UnsafeBindError extends RewardLensError {
  static readonly code = 'UNSAFE_BIND';
  readonly host: string;

  constructor(host: string) {
    super(
      UnsafeBindError.code,
      `refusing to listen on ${host} without an API key: anyone who can reach this address could use the model; set an API key (clients send Authorization: Bearer <key>), listen on 127.0.0.1, or allow unauthenticated remote access explicitly`,
    );
    this.name = 'UnsafeBindError';
    this.host = host;
  }

  static override isInstance(value: unknown): value is UnsafeBindError {
    return RewardLensError.hasCode(value, UnsafeBindError.code);
  }
}
