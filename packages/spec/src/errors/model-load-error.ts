import { RewardLensError } from './reward-lens-error.js';

/** A model file that is missing, corrupt, or does not fit its configuration. Names the file, and the setting when one is refused. */
export class ModelLoadError extends RewardLensError {
  static readonly code = 'MODEL_LOAD';
  readonly file: string | undefined;
  /** The configuration setting refused (`sliding_window`, `rope_scaling`), when the error is about one. */
  readonly setting: string | undefined;

  constructor(message: string, options?: { file?: string; setting?: string; cause?: unknown }) {
    super(ModelLoadError.code, options?.file ? `${options.file}: ${message}` : message, options);
    this.name = 'ModelLoadError';
    this.file = options?.file;
    this.setting = options?.setting;
  }

  static override isInstance(value: unknown): value is ModelLoadError {
    return RewardLensError.hasCode(value, ModelLoadError.code);
  }
}
