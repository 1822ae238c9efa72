import { RewardLensError } from './reward-lens-error.js';

/** A backend request or response that breaks the backend spec (bad shapes, positions out of range, use after dispose). */
export class BackendContractError extends RewardLensError {
  static readonly code = 'BACKEND_CONTRACT';
  readonly backend: string;
  /** The part of the request at fault when it is the caller's data passed through (`direction` of an HVP). */
  readonly field: string | undefined;

  constructor(backend: string, message: string, options?: { cause?: unknown; field?: string }) {
    super(BackendContractError.code, `backend "${backend}": ${message}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BackendContractError';
    this.backend = backend;
    this.field = options?.field;
  }

  static override isInstance(value: unknown): value is BackendContractError {
    return RewardLensError.hasCode(value, BackendContractError.code);
  }
}
