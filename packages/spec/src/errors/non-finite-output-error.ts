import { RewardLensError } from './reward-lens-error.js';

/**
 * A model produced NaN or an infinity where a score or an activation was read: broken weights
 * (NaN in a tensor), or values that overflow the backend's precision. Never reported as a null score.
 */
export class NonFiniteOutputError extends RewardLensError {
  static readonly code = 'NON_FINITE_OUTPUT';
  /** The model, as its backend describes it. */
  readonly model: string;
  readonly inputIndex: number;

  constructor(details: { model: string; backend: string; inputIndex: number; value: number; position: number }) {
    super(
      NonFiniteOutputError.code,
      `pair ${details.inputIndex}: model ${details.model} on backend "${details.backend}" produced ${details.value} at token position ${details.position}` +
        ' (non-finite outputs come from broken weights, e.g. NaN in a tensor, or values that overflow the backend precision)',
    );
    this.name = 'NonFiniteOutputError';
    this.model = details.model;
    this.inputIndex = details.inputIndex;
  }

  static override isInstance(value: unknown): value is NonFiniteOutputError {
    return RewardLensError.hasCode(value, NonFiniteOutputError.code);
  }
}
