import { RewardLensError } from './reward-lens-error.js';

/** A method was called whose capability the backend (or model) does not have. Thrown before any work. */
export class UnsupportedCapabilityError extends RewardLensError {
  static readonly code = 'UNSUPPORTED_CAPABILITY';
  readonly capability: string;
  readonly backend: string;

  constructor(options: { capability: string; backend: string; operation: string }) {
    super(UnsupportedCapabilityError.code, `${options.operation} needs the ${options.capability} capability, which backend "${options.backend}" does not have`);
    this.name = 'UnsupportedCapabilityError';
    this.capability = options.capability;
    this.backend = options.backend;
  }

  static override isInstance(value: unknown): value is UnsupportedCapabilityError {
    return RewardLensError.hasCode(value, UnsupportedCapabilityError.code);
  }
}
