import { InvalidInputError } from '@reward-lens/core';

const marker = Symbol.for('reward-lens.policy-spec-error');

/**
 * A policy named with settings it cannot take: a named policy's settings (`organism:error=2`,
 * `tiny:x`), or loading settings that do not apply to it (a prompt template for the organism).
 * Nothing has been loaded when it is thrown. `PolicySpecError.isInstance` works across duplicate
 * copies of the package, as `InvalidInputError.isInstance` does.
 */
export class PolicySpecError extends InvalidInputError {
  readonly [marker] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PolicySpecError';
  }

  static override isInstance(value: unknown): value is PolicySpecError {
    return InvalidInputError.isInstance(value) && (value as unknown as Record<symbol, unknown>)[marker] === true;
  }
}
