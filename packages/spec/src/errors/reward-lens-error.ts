const marker = Symbol.for('reward-lens.error');

/**
 * The base of every error reward-lens throws. `code` is stable across versions;
 * `RewardLensError.isInstance(value)` works across duplicate copies of the package
 * (it checks a `Symbol.for` marker, not the prototype chain).
 */
export class RewardLensError extends Error {
  readonly [marker] = true;
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RewardLensError';
    this.code = code;
  }

  static isInstance(value: unknown): value is RewardLensError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }

  /** True when `value` is a reward-lens error with this `code`. */
  static hasCode(value: unknown, code: string): value is RewardLensError {
    return RewardLensError.isInstance(value) && value.code === code;
  }
}
