import { twoModuleCopies } from '@reward-lens/test-data/module-copies';
import { describe, expect, it } from 'vitest';
import type { BackendV1 } from './backend/v1/backend-v1.js';

describe('process-wide state is shared by every copy of spec', () => {
  it('a backend registered through one copy of the registry is resolved by another', async () => {
    const [first, second] = await twoModuleCopies(() => import('./backend/registry.js'));
    const remove = first.registerBackend({
      name: 'copy-test',
      priority: -1,
      explicitOnly: true,
      unavailableReason: () => null,
      create: async () => ({ name: 'copy-test' }) as unknown as BackendV1,
    });
    try {
      expect(second.registeredBackends().map((registration) => registration.name)).toContain('copy-test');
      const source = { kind: 'onnx', path: 'unused.onnx', description: 'a test source' } as const;
      expect((await second.resolveBackend('copy-test', source)).backend.name).toBe('copy-test');
    } finally {
      remove();
    }
    expect(second.registeredBackends().map((registration) => registration.name)).not.toContain('copy-test');
  });

  it('lives on globalThis under a Symbol.for key', async () => {
    const { registerBackend } = await import('./backend/registry.js');
    const remove = registerBackend({
      name: 'symbol-test',
      priority: -1,
      explicitOnly: true,
      unavailableReason: () => 'never',
      create: async () => ({}) as unknown as BackendV1,
    });
    try {
      const store = (globalThis as unknown as Record<symbol, unknown>)[Symbol.for('reward-lens.backend-registrations.v1')];
      expect(store).toBeInstanceOf(Map);
      expect((store as Map<string, unknown>).has('symbol-test')).toBe(true);
    } finally {
      remove();
    }
  });
});
