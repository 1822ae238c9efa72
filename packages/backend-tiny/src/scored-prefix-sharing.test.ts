import { createRandomDecoder, type BackendV1, type CacheHandleV1, type ForwardRequestV1 } from '@reward-lens/spec';
import { createByteBpeTokenizer, ProcessRM } from '@reward-lens/core';
import { describe, expect, it } from 'vitest';
import { createTinyBackend } from './create-tiny-backend.js';

/** Every cache handle the backend hands out, with its forks and releases counted. */
interface HandleLog {
  made: number;
  forks: number;
  released: number;
  live: Set<CountedHandle>;
}

class CountedHandle implements CacheHandleV1 {
  readonly specificationVersion = 'v1' as const;
  constructor(
    readonly inner: CacheHandleV1,
    readonly log: HandleLog,
  ) {
    log.made++;
    log.live.add(this);
  }
  get length() {
    return this.inner.length;
  }
  fork(): CacheHandleV1 {
    this.log.forks++;
    return new CountedHandle(this.inner.fork(), this.log);
  }
  release(): void {
    if (this.log.live.delete(this)) this.log.released++;
    this.inner.release();
  }
}

/** backend-tiny, its cache handles wrapped so that forks and releases are counted. */
function countingHandles(backend: BackendV1): { backend: BackendV1; log: HandleLog } {
  const log: HandleLog = { made: 0, forks: 0, released: 0, live: new Set() };
  const wrapped: BackendV1 = {
    specificationVersion: 'v1',
    name: backend.name,
    capabilities: backend.capabilities,
    precision: backend.precision,
    supportsCache: backend.supportsCache,
    info: backend.info,
    async doForward(request: ForwardRequestV1) {
      const past = request.past?.map((handle) => (handle === null ? null : (handle as CountedHandle).inner));
      const result = await backend.doForward({ ...request, ...(past ? { past } : {}) });
      return result.caches ? { ...result, caches: result.caches.map((cache) => new CountedHandle(cache, log)) } : result;
    },
    dispose: () => backend.dispose(),
  };
  return { backend: wrapped, log };
}

const problem = 'Add the numbers one by one; what is the total?';
const steps = Array.from({ length: 12 }, (_, index) => `Step ${index + 1}: add ${index * 3 + 1}, which gives ${((index + 1) * (3 * index + 2)) / 2}.`);

describe('ScoredPrefix shares its checkpoints instead of forking them', () => {
  it('extends 12 steps with no fork and one new cache per extend, and scores as one full pass', async () => {
    const { backend, log } = countingHandles(createTinyBackend(createRandomDecoder({ seed: 4 })));
    const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer());
    const prefixes = [await prm.prefix(problem)];
    for (const [index, step] of steps.entries()) {
      const before = { made: log.made, forks: log.forks };
      prefixes.push(await prefixes.at(-1)!.extend(step));
      expect({ made: log.made - before.made, forks: log.forks - before.forks }, `extend ${index + 1}`).toEqual({ made: 1, forks: 0 });
    }
    const full = await prm.stepScores([{ problem, steps }]);
    expect(Array.from(prefixes.at(-1)!.stepScores)).toEqual(Array.from(full.value.curves[0]!));
    // One cache per step, however many prefixes share them.
    expect(log.live.size).toBe(log.made);
    for (const prefix of prefixes) prefix.release();
    expect(log.released).toBe(log.made);
    expect(log.live.size).toBe(0);
  });

  it('keeps shared caches while any prefix or fork holds them, in any release order', async () => {
    const { backend, log } = countingHandles(createTinyBackend(createRandomDecoder({ seed: 4 })));
    const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer());
    const root = await prm.prefix(problem);
    const first = await root.extend(steps[0]!);
    const [a, b] = await first.extendMany([steps[1]!, steps[2]!]);
    const copy = first.fork();
    expect(log.forks).toBe(0);
    // The root, the first step and the candidates' parents go; the leaves still extend exactly.
    root.release();
    first.release();
    expect(log.released).toBe(0);
    const next = await a!.extend(steps[3]!);
    const expected = await prm.stepScores([{ problem, steps: [steps[0]!, steps[1]!, steps[3]!] }]);
    expect(Array.from(next.stepScores)).toEqual(Array.from(expected.value.curves[0]!));
    for (const prefix of [a!, b!, next]) prefix.release();
    // `copy` still holds the first step's cache, and through it the root's (the problem's tokens).
    expect(log.live.size).toBe(2);
    const again = await copy.extend(steps[1]!);
    expect(Array.from(again.stepScores)).toEqual(Array.from(a!.stepScores));
    copy.release();
    again.release();
    again.release();
    expect(log.live.size).toBe(0);
    expect(log.released).toBe(log.made);
    await expect(copy.extend('x')).rejects.toMatchObject({ code: 'PREFIX_RELEASED' });
  });
});
