import { RewardLensError } from './reward-lens-error.js';

/** A backend request or response that breaks the backend spec (bad shapes, positions out of range, use after dispose). */
export class BackendContractError extends RewardLensError {
  static readonly code = 'BACKEND_CONTRACT';
  readonly backend: string;

  constructor(backend: string, message: string, options?: { cause?: unknown }) {
    super(BackendContractError.code, `backend "${backend}": ${message}`, options);
    this.name = 'BackendContractError';
    this.backend = backend;
  }

  static override isInstance(value: unknown): value is BackendContractError {
    return RewardLensError.hasCode(value, BackendContractError.code);
  }
}
