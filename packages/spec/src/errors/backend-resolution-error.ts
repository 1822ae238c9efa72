import { RewardLensError } from './reward-lens-error.js';

export interface SkippedBackend {
  name: string;
  reason: string;
}

/** No backend could be had: lists every candidate with the reason it was skipped. */
export class BackendResolutionError extends RewardLensError {
  static readonly code = 'BACKEND_RESOLUTION';
  readonly skipped: readonly SkippedBackend[];

  constructor(requested: string, skipped: readonly SkippedBackend[], options?: { cause?: unknown }) {
    const lines = skipped.map((candidate) => `  - ${candidate.name}: ${candidate.reason}`);
    const detail = lines.length > 0 ? `\n${lines.join('\n')}` : ' (no backend is registered)';
    super(BackendResolutionError.code, `No backend could be resolved for "${requested}":${detail}`, options);
    this.name = 'BackendResolutionError';
    this.skipped = skipped;
  }

  static override isInstance(value: unknown): value is BackendResolutionError {
    return RewardLensError.hasCode(value, BackendResolutionError.code);
  }
}
