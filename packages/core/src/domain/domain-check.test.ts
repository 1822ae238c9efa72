import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordTrust } from '../calibration/calibrate-evidence.js';
import type { StepCalibration } from '../calibration/step-calibration.js';
import { InvalidInputError, createRandomDecoder } from '@reward-lens/spec';

import { ProcessRM } from '../process-rm/process-rm.js';
import { createReferenceBackend } from '../testing/reference/reference-backend.js';
import { createByteBpeTokenizer } from '@reward-lens/tokenizers';
import type { DomainCheck } from './domain-check.js';
import { tokenDomainCheck, tokenRanges, unknownTokenShare, validateTokenDomainSpec, type TokenDomainSpec } from './token-domain.js';

const inDomain = { problem: 'Ann has 3 cats. She gets 2 more.', steps: ['3 + 2 = 5 cats.', 'The answer is 5.'] };
const outside = { problem: 'Quizzical zebras jog vexingly.', steps: ['Wry fjord quixotry.', 'Jumpy vexed whiz.'] };

async function calibrated(domainCheck: TokenDomainSpec | undefined, domainChecks: DomainCheck[] = []) {
  const backend = createReferenceBackend(createRandomDecoder({ seed: 3 }));
  const calibration: StepCalibration = {
    format: 'reward-lens.step-calibration',
    version: 1,
    map: { method: 'platt', slope: 1, intercept: 0 },
    set: { name: 'test set', domain: 'the in-domain sentence', labelledSteps: 2, items: 1 },
    ...(domainCheck ? { domainCheck } : {}),
  };
  return ProcessRM.fromBackend(backend, createByteBpeTokenizer(), { calibration, domainChecks });
}

describe('domain checks', () => {
  it('tokenRanges covers exactly the ids given (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 60 }), fc.integer({ min: 0, max: 300 }), (ids, probe) => {
        const spec = validateTokenDomainSpec({ kind: 'tokens', known: tokenRanges(ids), maxUnknownShare: 0, countedOn: 'a property' });
        expect(unknownTokenShare(spec, Int32Array.of(probe)).unknown).toBe(ids.includes(probe) ? 0 : 1);
      }),
    );
  });

  it("the calibration's vocabulary check keeps an in-domain record CALIBRATED and marks one outside, with how much", async () => {
    const reference = await calibrated(undefined);
    const known = tokenRanges((await reference.segment(inDomain)).inputIds);
    const prm = await calibrated({ kind: 'tokens', known, maxUnknownShare: 0.05, countedOn: 'one sentence' });
    const alone = await prm.stepScores([inDomain]);
    expect(alone.trust).toBe('CALIBRATED');
    expect(alone.value.meta[0]!.outOfDomain).toBeUndefined();

    const mixed = await prm.stepScores([inDomain, outside]);
    expect(mixed.trust).toBe('EXPLORATORY');
    expect(recordTrust(mixed, 0)).toBe('CALIBRATED');
    expect(recordTrust(mixed, 1)).toBe('EXPLORATORY');
    const reason = mixed.value.meta[1]!.outOfDomain!;
    const pair = await prm.segment(outside);
    const { unknown, total } = unknownTokenShare(validateTokenDomainSpec({ kind: 'tokens', known, maxUnknownShare: 0.05, countedOn: 'x' }), pair.inputIds);
    expect(unknown).toBeGreaterThan(0);
    expect(reason).toContain(`vocabulary: ${unknown} of ${total} tokens`);
    expect(mixed.value.meta[1]!.notes.some((note) => note.startsWith("outside the model's domain (vocabulary:"))).toBe(true);
    expect(mixed.notes.some((note) => note.startsWith("pair 1: outside the model's domain"))).toBe(true);
    expect(mixed.notes).toContain(
      "1 of 2 records are outside the model's domain: probabilities through the calibration map, not calibrated for that text (trust EXPLORATORY)",
    );
    // Scores are the same numbers either way: the check labels them, it does not change them.
    expect(Array.from(mixed.value.curves[0]!)).toEqual(Array.from(alone.value.curves[0]!));

    const outcome = await prm.score([outside]);
    expect(outcome.trust).toBe('EXPLORATORY');
    expect(outcome.notes.some((note) => note.startsWith("the record is outside the model's domain"))).toBe(true);
    await prm.dispose();
  });

  it("a package's own check (a grammar, say) applies beside the calibration's; its reason is in the notes", async () => {
    const grammar: DomainCheck = {
      name: 'test grammar',
      check: ({ steps }) => (steps.some((step) => step.startsWith('Wry')) ? 'a step starts with "Wry"' : undefined),
    };
    const prm = await calibrated(undefined, [grammar]);
    const evidence = await prm.stepScores([inDomain, outside]);
    expect(evidence.value.meta.map((meta) => meta.outOfDomain)).toEqual([undefined, 'test grammar: a step starts with "Wry"']);
    expect(evidence.value.meta.map((meta) => meta.trust)).toEqual(['CALIBRATED', 'EXPLORATORY']);
    await prm.dispose();
  });

  it.each([
    [[], /must be an object/],
    [{ kind: 'words' }, /kind must be "tokens"/],
    [{ kind: 'tokens', known: [[3, 2]], maxUnknownShare: 0, countedOn: 'x' }, /known\[0\]/],
    [
      {
        kind: 'tokens',
        known: [
          [0, 4],
          [2, 6],
        ],
        maxUnknownShare: 0,
        countedOn: 'x',
      },
      /overlaps/,
    ],
    [{ kind: 'tokens', known: [], maxUnknownShare: 2, countedOn: 'x' }, /maxUnknownShare/],
    [{ kind: 'tokens', known: [], maxUnknownShare: 0.1, countedOn: '' }, /countedOn/],
  ])('refuses a malformed vocabulary check with a typed error (%#)', (value, message) => {
    expect(() => tokenDomainCheck(value as TokenDomainSpec)).toThrow(message);
    expect(() => validateTokenDomainSpec(value)).toThrow(InvalidInputError);
  });
});
