import { RewardLensError } from '@reward-lens/core';

/** A split being scored holds a solution the threshold (or calibration) was chosen on: the score would be tuned on itself. */
export class CalibrationLeakError extends RewardLensError {
  static readonly code = 'CALIBRATION_LEAK';

  constructor(message: string, options?: { cause?: unknown }) {
    super(CalibrationLeakError.code, message, options);
    this.name = 'CalibrationLeakError';
  }

  static override isInstance(value: unknown): value is CalibrationLeakError {
    return RewardLensError.hasCode(value, CalibrationLeakError.code);
  }
}
