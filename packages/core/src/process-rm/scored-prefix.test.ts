import { describe, expect, it } from 'vitest';
import { InvalidInputError, createRandomDecoder } from '@reward-lens/spec';

import { trlTokenClassificationRecipe } from '../recipes/presets.js';
import { conformanceConfigs } from '../testing/conformance-fixtures.js';
import { countingBackend } from '../testing/counting-backend.js';
import { createReferenceBackend } from '../testing/reference/reference-backend.js';
import { type CharSpan, createByteBpeTokenizer, type Encoding, type PrmTokenizer } from '@reward-lens/tokenizers';
import { ProcessRM, type ProcessRMOptions } from './process-rm.js';
import { ScoredPrefix } from './scored-prefix.js';

/** The float64 oracle, counting the real tokens it runs. */
function countingOracle(seed = 1, config = createRandomDecoder({ seed }).config) {
  return countingBackend(createReferenceBackend(createRandomDecoder({ seed, config })));
}

/**
 * Greedy longest match over a fixed vocabulary (single characters, then `pieces`), no merges
 * learned: a tokenizer whose boundary merges are whatever the pieces say.
 */
function greedyTokenizer(pieces: readonly string[]): PrmTokenizer {
  const characters = [...new Set([...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;+-=?!()\\\n\t\u00e9'])];
  const vocabulary = ['<pad>', '<s>', '</s>', ...characters, ...pieces];
  const longest = Math.max(...vocabulary.map((token) => token.length));
  return {
    name: 'greedy',
    vocabSize: vocabulary.length,
    bosTokenId: 1,
    eosTokenId: 2,
    padTokenId: 0,
    encode(text: string): Encoding {
      const ids: number[] = [];
      const offsets: CharSpan[] = [];
      for (let at = 0; at < text.length; ) {
        let length = Math.min(longest, text.length - at);
        while (length > 1 && !vocabulary.includes(text.slice(at, at + length))) length--;
        const id = vocabulary.indexOf(text.slice(at, at + length));
        if (id < 3) throw new Error(`no token for ${JSON.stringify(text[at])}`);
        ids.push(id);
        offsets.push([at, at + length]);
        at += length;
      }
      return { ids, offsets };
    },
    decode: (ids) => ids.map((id) => (id < 3 ? '' : vocabulary[id])).join(''),
    tokenToId: (token) => (vocabulary.includes(token) ? vocabulary.indexOf(token) : undefined),
  };
}

function commonLength(left: ArrayLike<number>, right: ArrayLike<number>): number {
  let length = 0;
  while (length < left.length && length < right.length && left[length] === right[length]) length++;
  return length;
}

const problem = 'Add the numbers one by one.';
const steps = ['First 1 + 2 = 3.', 'Then 3 + 4 = 7.', 'Then 7 + 5 = 12.', 'Then 12 + 6 = 18.', 'So the answer is 18.'];

/**
 * Extends a prefix step by step, checking at each step that the backend ran exactly the tokens
 * from the last one the new layout kept onwards, and the scores of one full pass. `kept[0]` is
 * what the root (the problem alone) cached, which it ran itself.
 */
async function extendChecking(
  prm: ProcessRM,
  backend: { tokensSeen: number },
  chain: readonly string[],
): Promise<{ runs: number[]; kept: number[]; root: number }> {
  const start = backend.tokensSeen;
  let prefix: ScoredPrefix = await prm.prefix(problem);
  const root = prefix.cachedTokens;
  expect(prefix.tokensRun).toBe(backend.tokensSeen - start);
  expect(prefix.tokensRun).toBe(root);
  const runs: number[] = [];
  const kept: number[] = [];
  let previous: Int32Array = new Int32Array(0);
  for (let count = 1; count <= chain.length; count++) {
    const ids = prm.tokenize({ problem, steps: chain.slice(0, count) }).inputIds;
    const before = backend.tokensSeen;
    const next = await prefix.extend(chain[count - 1]!);
    expect(next.tokensRun, `step ${count}`).toBe(backend.tokensSeen - before);
    const full = await prm.stepScores([{ problem, steps: chain.slice(0, count) }]);
    Array.from(full.value.curves[0]!).forEach((score, step) => expect(next.stepScores[step]).toBeCloseTo(score, 5));
    expect(next.tokenCount).toBe(ids.length);
    runs.push(next.tokensRun);
    kept.push(count === 1 ? root : commonLength(previous, ids));
    previous = ids;
    prefix.release();
    prefix = next;
  }
  prefix.release();
  return { runs, kept, root };
}

describe('ScoredPrefix: an extension runs only from the last token the new layout keeps', () => {
  it('byte-level BPE, which writes "." then "\\n" as one token: one token of the previous prefix is run again, no more', async () => {
    const backend = countingOracle();
    const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer());
    const { runs, kept, root } = await extendChecking(prm, backend, steps);
    const lengths = steps.map((_, index) => prm.tokenize({ problem, steps: steps.slice(0, index + 1) }).inputIds.length);
    // From the second step on, the previous layout's last token (the ".") is rewritten, and run again.
    expect(kept.slice(1)).toEqual(lengths.slice(0, -1).map((length) => length - 1));
    expect(runs).toEqual(lengths.map((length, index) => length - kept[index]!));
    // The root ran the problem's tokens but the last, which some first steps merge with (the probes show it).
    expect(root).toBe(prm.tokenize({ problem, steps: [steps[0]!] }).steps[0]!.tokenSpan[0] - 1);
    expect(runs[0]).toBe(lengths[0]! - root);
    // Before the fix each extension re-ran the whole prefix: 5 steps then cost the sum of all lengths.
    // The root and the extensions ran every token once, and one more per step after the first.
    expect(root + runs.reduce((sum, run) => sum + run, 0)).toBe(lengths.at(-1)! + steps.length - 1);
  });

  it('one forward pass per extension where the backend cuts a returned cache (cacheLengths), two where it cannot, the same scores', async () => {
    const cutting = countingOracle();
    const uncut = countingOracle();
    const { supportsCacheLengths: _, ...withoutLengths } = uncut;
    const walk = async (backend: typeof cutting, prm: ProcessRM) => {
      let prefix = await prm.prefix(problem);
      const passes: number[] = [];
      for (const step of steps) {
        const before = backend.forwardCalls;
        const next = await prefix.extend(step);
        passes.push(backend.forwardCalls - before);
        prefix.release();
        prefix = next;
      }
      const scores = prefix.stepScores;
      prefix.release();
      return { passes, scores };
    };
    expect(cutting.supportsCacheLengths).toBe(true);
    const one = await walk(cutting, ProcessRM.fromBackend(cutting, createByteBpeTokenizer()));
    const fallback = ProcessRM.fromBackend({ ...withoutLengths, doForward: (request) => uncut.doForward(request) }, createByteBpeTokenizer());
    const two = await walk(uncut, fallback);
    expect(one.passes).toEqual(steps.map(() => 1));
    expect(two.passes).toEqual(steps.map(() => 2));
    expect(Array.from(one.scores)).toEqual(Array.from(two.scores));
  });

  it('takes an AbortSignal: aborted before, or between two forward passes, it rejects with the reason and the prefix stays usable', async () => {
    const backend = countingOracle();
    const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer(), { batchSize: 1 });
    const root = await prm.prefix(problem);
    const before = new AbortController();
    before.abort(new Error('stopped before'));
    const calls = backend.forwardCalls;
    await expect(root.extend(steps[0]!, { signal: before.signal })).rejects.toThrow('stopped before');
    expect(backend.forwardCalls).toBe(calls);
    const during = new AbortController();
    const forward = backend.doForward.bind(backend);
    backend.doForward = async (request) => {
      const result = await forward(request);
      during.abort(new Error('stopped between passes'));
      return result;
    };
    // batchSize 1: two candidates are two passes; the abort after the first stops the second.
    await expect(root.extendMany([steps[0]!, steps[1]!], { signal: during.signal })).rejects.toThrow('stopped between passes');
    backend.doForward = forward;
    const child = await root.extend(steps[0]!);
    const full = await prm.stepScores([{ problem, steps: [steps[0]!] }]);
    expect(child.score).toBeCloseTo(full.value.curves[0]![0]!, 5);
    child.release();
    root.release();
  });

  it('a tokenizer whose merge rewrites the last two tokens: the cache stops two tokens short, and two are run again', async () => {
    // "18." alone is "1" "8" "."; followed by "\n" it is "18.\n" (one token), so two tokens change.
    const tokenizer = greedyTokenizer(['3.\n', '7.\n', '12.\n', '18.\n', '12', '18']);
    const backend = countingOracle();
    const prm = ProcessRM.fromBackend(backend, tokenizer);
    const root = await prm.prefix(problem);
    const first = await root.extend(steps[0]!);
    // "3." ends as "3" then ".", which a next step rewrites as "3.\n": the cache stops before both.
    expect(first.tokenCount - first.cachedTokens).toBe(2);
    const chain = steps.slice(0, 4);
    const { runs, kept } = await extendChecking(prm, backend, chain);
    const lengths = chain.map((_, index) => prm.tokenize({ problem, steps: chain.slice(0, index + 1) }).inputIds.length);
    expect(kept.slice(1)).toEqual(lengths.slice(0, -1).map((length) => length - 2));
    expect(runs.slice(1)).toEqual(lengths.slice(1).map((length, index) => length - kept[index + 1]!));
    for (const handle of [root, first]) handle.release();
  });

  it('a merge that only some next steps make (".\\nT"): the cache keeps the ".", and a step starting with "T" runs from the checkpoint before', async () => {
    const tokenizer = greedyTokenizer(['.\nT']);
    const backend = countingOracle();
    const prm = ProcessRM.fromBackend(backend, tokenizer);
    const root = await prm.prefix(problem);
    const first = await root.extend(steps[0]!);
    // No probe starts with "T": every token of "First 1 + 2 = 3." is kept.
    expect(first.cachedTokens).toBe(first.tokenCount);
    const before = backend.tokensSeen;
    const [other, then] = await first.extendMany(['And 3 + 1 = 4.', steps[1]!]);
    const otherIds = prm.tokenize({ problem, steps: [steps[0]!, 'And 3 + 1 = 4.'] }).inputIds;
    const thenIds = prm.tokenize({ problem, steps: [steps[0]!, steps[1]!] }).inputIds;
    // "And ..." keeps the cache: its own tokens only. "Then ..." rewrites "." as ".\nT": first's own
    // cache no longer matches and it runs from the root's (the problem's tokens), scored exactly.
    expect(other!.tokensRun).toBe(otherIds.length - first.tokenCount);
    expect(root.cachedTokens).toBeGreaterThan(0);
    expect(then!.tokensRun).toBe(thenIds.length - root.cachedTokens);
    expect(backend.tokensSeen - before).toBe(other!.tokensRun + then!.tokensRun);
    for (const [handle, chain] of [
      [other!, [steps[0]!, 'And 3 + 1 = 4.']],
      [then!, [steps[0]!, steps[1]!]],
    ] as const) {
      const full = await prm.stepScores([{ problem, steps: [...chain] }]);
      Array.from(full.value.curves[0]!).forEach((score, step) => expect(handle.stepScores[step]).toBeCloseTo(score, 5));
    }
    for (const handle of [root, first, other!, then!]) handle.release();
  });

  it('steps encoded apart (TRL token classification): nothing merges, the cache covers every token', async () => {
    const config = conformanceConfigs[1]!.config;
    const backend = countingOracle(2, config);
    const options: ProcessRMOptions = { recipe: trlTokenClassificationRecipe };
    const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer(), options);
    const { runs, root } = await extendChecking(prm, backend, steps);
    const lengths = steps.map((_, index) => prm.tokenize({ problem, steps: steps.slice(0, index + 1) }).inputIds.length);
    // Encoded apart, the problem's piece is cached whole by the root.
    expect(root).toBe(prm.tokenize({ problem, steps: [steps[0]!] }).steps[0]!.tokenSpan[0]);
    expect(runs).toEqual(lengths.map((length, index) => length - (index === 0 ? root : lengths[index - 1]!)));
    const prefix = await (await prm.prefix(problem)).extend(steps[0]!);
    expect(prefix.cachedTokens).toBe(prefix.tokenCount);
    prefix.release();
  });
});

describe('ScoredPrefix.extendAll', () => {
  it('extends prefixes of different problems in one batch, as extendMany does each', async () => {
    const backend = countingOracle();
    const prm = ProcessRM.fromBackend(backend, createByteBpeTokenizer());
    const a = await (await prm.prefix(problem)).extend(steps[0]!);
    const b = await (await prm.prefix('Count to three.')).extend('One, two.');
    const before = backend.tokensSeen;
    const [fromA, fromB] = await ScoredPrefix.extendAll([
      { prefix: a, candidates: [steps[1]!, 'Then 3 + 3 = 6.'] },
      { prefix: b, candidates: ['Three.'] },
    ]);
    const together = backend.tokensSeen - before;
    const alone = [...(await a.extendMany([steps[1]!, 'Then 3 + 3 = 6.'])), ...(await b.extendMany(['Three.']))];
    expect([...fromA!, ...fromB!].map((child) => Array.from(child.stepScores))).toEqual(alone.map((child) => Array.from(child.stepScores)));
    expect(together).toBe(alone.reduce((sum, child) => sum + child.tokensRun, 0));
    expect(fromB![0]!.steps).toEqual(['One, two.', 'Three.']);
    for (const handle of [a, b, ...fromA!, ...fromB!, ...alone]) handle.release();
  });

  it('refuses prefixes of two ProcessRMs, and a released prefix', async () => {
    const one = ProcessRM.fromBackend(countingOracle(), createByteBpeTokenizer());
    const two = ProcessRM.fromBackend(countingOracle(), createByteBpeTokenizer());
    const a = await one.prefix(problem);
    const b = await two.prefix(problem);
    await expect(
      ScoredPrefix.extendAll([
        { prefix: a, candidates: ['x.'] },
        { prefix: b, candidates: ['y.'] },
      ]),
    ).rejects.toThrow(InvalidInputError);
    b.release();
    await expect(ScoredPrefix.extendAll([{ prefix: b, candidates: ['y.'] }])).rejects.toMatchObject({ code: 'PREFIX_RELEASED' });
    expect(await ScoredPrefix.extendAll([{ prefix: a, candidates: [] }])).toEqual([[]]);
    await expect(a.extendMany(['ok.', ' '])).rejects.toThrow(/candidate 1/);
    a.release();
  });
});
