import { RewardLensError } from './reward-lens-error.js';

/** A model file that is missing, corrupt, or does not fit its configuration. Names the file. */
export class ModelLoadError extends RewardLensError {
  static readonly code = 'MODEL_LOAD';
  readonly file: string | undefined;

  constructor(message: string, options?: { file?: string; cause?: unknown }) {
    super(ModelLoadError.code, options?.file ? `${options.file}: ${message}` : message, options);
    this.name = 'ModelLoadError';
    this.file = options?.file;
  }

  static override isInstance(value: unknown): value is ModelLoadError {
    return RewardLensError.hasCode(value, ModelLoadError.code);
  }
}
