import { describe, expect, it } from 'vitest';
import { chooseExecutionProvider } from './execution-provider.js';

describe('chooseExecutionProvider', () => {
  it('takes the first requested provider that can run, wasm by default', () => {
    expect(chooseExecutionProvider(undefined, null)).toEqual({ provider: 'wasm', skipped: [] });
    expect(chooseExecutionProvider(['webgpu', 'wasm'], null)).toEqual({ provider: 'webgpu', skipped: [] });
    expect(chooseExecutionProvider(['wasm', 'webgpu'], null)).toEqual({ provider: 'wasm', skipped: [] });
  });

  it('falls back to wasm with the reason when WebGPU cannot run, even when only WebGPU was asked for', () => {
    expect(chooseExecutionProvider(['webgpu', 'wasm'], 'no adapter')).toEqual({ provider: 'wasm', skipped: ['webgpu: no adapter'] });
    expect(chooseExecutionProvider(['webgpu'], 'no adapter')).toEqual({ provider: 'wasm', skipped: ['webgpu: no adapter'] });
  });

  it('rejects an unknown provider', () => {
    expect(() => chooseExecutionProvider(['webgl' as 'wasm'], null)).toThrow(/unknown execution provider "webgl"/);
  });
});
