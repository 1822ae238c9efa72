import { afterEach, describe, expect, it } from 'vitest';
import { readsDecoderFolders, readsWeightsOverGraph, takesWeightArena } from './folder-source-choice.js';
import { registerBackend, type BackendRegistration } from './registry.js';

function registration(name: string, sourceKinds?: readonly string[]): BackendRegistration {
  return {
    name,
    priority: 0,
    ...(sourceKinds ? { sourceKinds } : {}),
    unavailableReason: () => null,
    create: async () => {
      throw new Error('not created in this test');
    },
  };
}

describe('which file of a folder holding a graph and weights a request reads', () => {
  const removers: (() => void)[] = [];
  afterEach(() => removers.splice(0).forEach((remove) => remove()));

  it('the named backend decides: one that runs weights only reads the weights; auto, graph runners and the unspecified read the graph', () => {
    removers.push(registerBackend(registration('test-weights-only', ['decoder'])));
    removers.push(registerBackend(registration('test-both', ['onnx', 'decoder'])));
    removers.push(registerBackend(registration('test-graphs-only', ['onnx'])));
    removers.push(registerBackend(registration('test-unspecified')));
    expect(readsWeightsOverGraph('test-weights-only')).toBe(true);
    expect(readsWeightsOverGraph('test-both')).toBe(false);
    expect(readsWeightsOverGraph('test-graphs-only')).toBe(false);
    expect(readsWeightsOverGraph('test-unspecified')).toBe(false);
    expect(readsWeightsOverGraph('auto')).toBe(false);
    // Not registered: resolution then reports it; the folder is read as before.
    expect(readsWeightsOverGraph('test-missing')).toBe(false);
  });

  it('a folder is handed over unread only to a backend named by the user that lists decoder-folder, never under auto', () => {
    removers.push(registerBackend({ ...registration('test-folders', ['onnx', 'decoder', 'decoder-folder']), priority: 5000 }));
    removers.push(registerBackend(registration('test-no-folders', ['onnx', 'decoder'])));
    expect(readsDecoderFolders('test-folders')).toBe(true);
    expect(readsDecoderFolders('test-no-folders')).toBe(false);
    expect(readsDecoderFolders('test-missing')).toBe(false);
    // Under auto the first candidate may turn out unavailable, and the next one could not read the folder.
    expect(readsDecoderFolders('auto')).toBe(false);
  });

  it('a weight arena is read into only for a backend that takes one: the named one, or the first decoder runner auto tries', () => {
    const arena = { ...registration('test-arena', ['decoder']), takesWeightArena: true, explicitOnly: true };
    removers.push(registerBackend(arena));
    removers.push(registerBackend(registration('test-copies', ['decoder'])));
    expect(takesWeightArena('test-arena')).toBe(true);
    expect(takesWeightArena('test-copies')).toBe(false);
    expect(takesWeightArena('test-missing')).toBe(false);
    // Under auto, the highest-priority backend that runs decoder weights decides (a graph-only one is passed over).
    removers.push(registerBackend({ ...registration('test-auto-arena', ['decoder']), priority: 1000, takesWeightArena: true }));
    expect(takesWeightArena('auto')).toBe(true);
    removers.push(registerBackend({ ...registration('test-auto-graphs', ['onnx']), priority: 2000 }));
    expect(takesWeightArena('auto')).toBe(true);
    removers.push(registerBackend({ ...registration('test-auto-copies', ['onnx', 'decoder']), priority: 3000 }));
    expect(takesWeightArena('auto')).toBe(false);
  });

  it('under a dtype, the first decoder runner that holds it decides', () => {
    removers.push(registerBackend({ ...registration('test-quantizing-arena', ['decoder']), priority: 5000, takesWeightArena: true, dtypes: ['fp32', 'q8'] }));
    removers.push(registerBackend({ ...registration('test-fp32-copies', ['decoder']), priority: 6000 }));
    expect(takesWeightArena('test-quantizing-arena', 'q8')).toBe(true);
    expect(takesWeightArena('auto')).toBe(false);
    expect(takesWeightArena('auto', 'q8')).toBe(true);
    expect(takesWeightArena('test-fp32-copies', 'q8')).toBe(false);
  });
});
