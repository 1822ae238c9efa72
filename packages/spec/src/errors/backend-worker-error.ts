import { RewardLensError } from './reward-lens-error.js';

/**
 * A backend's worker thread stopped (out of memory, a crash) while it ran a request: that request
 * fails with this error, naming the worker and the request; the backend starts new workers, and
 * later requests run on them.
 */
export class BackendWorkerError extends RewardLensError {
  static readonly code = 'BACKEND_WORKER';
  readonly backend: string;
  /** The worker's index in the backend's pool (0-based). */
  readonly worker: number;
  /** What the worker was running, e.g. `doForward of 8 row(s), 2048 tokens (request 12)`. */
  readonly request: string;

  constructor(backend: string, worker: number, request: string, reason: string, options?: { cause?: unknown }) {
    super(
      BackendWorkerError.code,
      `backend "${backend}": worker thread ${worker} stopped while running ${request}: ${reason}; the request failed, later requests run on new threads`,
      options,
    );
    this.name = 'BackendWorkerError';
    this.backend = backend;
    this.worker = worker;
    this.request = request;
  }

  static override isInstance(value: unknown): value is BackendWorkerError {
    return RewardLensError.hasCode(value, BackendWorkerError.code);
  }
}
