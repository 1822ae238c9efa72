import { describe, expect, it } from 'vitest';
import { BackendResolutionError, InvalidInputError, ModelLoadError, RewardLensError, UnsupportedCapabilityError } from './index.js';

describe('errors', () => {
  it('carries a stable code, a name and the cause', () => {
    const cause = new Error('disk');
    const error = new ModelLoadError('header is truncated', { file: 'model.safetensors', cause });
    expect(error.code).toBe('MODEL_LOAD');
    expect(error.name).toBe('ModelLoadError');
    expect(error.message).toBe('model.safetensors: header is truncated');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(RewardLensError);
  });

  it('recognises errors from a duplicate copy of the package by their marker, not their prototype', () => {
    const foreign = Object.assign(new Error('from another copy'), { code: 'UNSUPPORTED_CAPABILITY', [Symbol.for('reward-lens.error')]: true });
    expect(RewardLensError.isInstance(foreign)).toBe(true);
    expect(UnsupportedCapabilityError.isInstance(foreign)).toBe(true);
    expect(InvalidInputError.isInstance(foreign)).toBe(false);
    expect(RewardLensError.isInstance(new Error('plain'))).toBe(false);
    expect(RewardLensError.isInstance(null)).toBe(false);
  });

  it('names the missing capability and lists every skipped backend', () => {
    const unsupported = new UnsupportedCapabilityError({ capability: 'GRADIENTS', backend: 'tiny', operation: 'gradients' });
    expect(unsupported.message).toBe('gradients needs the GRADIENTS capability, which backend "tiny" does not have');
    const resolution = new BackendResolutionError('auto', [
      { name: 'webgpu', reason: 'no adapter' },
      { name: 'tiny', reason: 'failed to start: out of memory' },
    ]);
    expect(resolution.message).toContain('  - webgpu: no adapter\n  - tiny: failed to start: out of memory');
    expect(resolution.skipped).toHaveLength(2);
  });
});
