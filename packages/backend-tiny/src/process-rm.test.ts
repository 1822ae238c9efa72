import { capabilitiesOf, InvalidInputError, NonFiniteOutputError, UnsupportedCapabilityError, createRandomDecoder } from '@reward-lens/spec';
import { ProcessRM, createByteBpeTokenizer } from '@reward-lens/core';
import { countingBackend } from '@reward-lens/core/testing';
import { describe, expect, it } from 'vitest';
import { createTinyBackend } from './create-tiny-backend.js';
import './register.js';

const problem = 'Compute (2+2)*3-5.';
const solution = 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.';

describe('ProcessRM on backend-tiny', () => {
  it('scores the reference example: three steps, the last equal to the outcome', async () => {
    const prm = await ProcessRM.fromTiny({ seed: 0 });
    expect(prm.capsString).toBe('SCORES|PREFIX_SCORES|ACTIVATIONS|GRADIENTS|HVP|LINEAR_READOUT|STEP_SCORES');
    const steps = await prm.stepScores([[problem, solution]]);
    expect(steps.value.stepCounts).toEqual([3]);
    expect(steps.value.steps[0]!.map((step) => step.text)).toEqual(['First, 2+2=4.', 'Then, 4*3=12.', 'Finally, 12-5=7.']);
    const outcome = await prm.score([[problem, solution]]);
    expect(steps.value.curves[0]![2]).toBe(outcome.value.values[0]);
    expect(new Set(steps.value.curves[0]).size).toBe(3);
    expect(steps).toMatchObject({ gauge: 'INVARIANT', trust: 'EXPLORATORY' });
    expect(steps.notes[0]).toMatch(/^backend "tiny" ran the seeded tiny model \(seed 0/);
  });

  it('gives the same scores for the same seed and other scores for another seed', async () => {
    const curve = async (seed: number) => (await (await ProcessRM.fromTiny({ seed })).stepScores([[problem, solution]])).value.curves[0]!;
    expect(await curve(3)).toEqual(await curve(3));
    expect(await curve(3)).not.toEqual(await curve(4));
  });

  it('reads a solution without a delimiter as one step and says why, in meta and notes', async () => {
    const prm = await ProcessRM.fromTiny({ seed: 0 });
    const one = prm.tokenize(['Compute.', 'one line solution with no newline at all']);
    expect(one.meta.nSteps).toBe(1);
    expect(one.meta.stepDetection).toMatch(/no delimiter "\\n" found/);
    const evidence = await prm.stepScores([['Compute.', 'one line solution with no newline at all']]);
    expect(evidence.notes.some((note) => note.includes('no delimiter'))).toBe(true);
    expect(evidence.value.meta[0]!.nSteps).toBe(1);
  });

  it('scores steps given as a list the same as the joined solution', async () => {
    const prm = await ProcessRM.fromTiny({ seed: 0 });
    const fromSteps = await prm.stepScores([{ problem, steps: solution.split('\n') }]);
    const fromText = await prm.stepScores([{ problem, solution }]);
    expect(fromSteps.value.curves[0]).toEqual(fromText.value.curves[0]);
  });

  it('reads every token with prefixScores, and the step scores are those tokens', async () => {
    const prm = await ProcessRM.fromTiny({ seed: 0 });
    const prefix = await prm.prefixScores([[problem, solution]]);
    const steps = await prm.stepScores([[problem, solution]]);
    const curve = prefix.value.curves[0]!;
    expect(curve.length).toBe(prm.tokenize([problem, solution]).inputIds.length);
    expect(prefix.value.stepReadPositions[0]!.map((position) => curve[position])).toEqual(Array.from(steps.value.curves[0]!));
  });

  it('gives hidden states at step boundaries and reads the head at inner layers', async () => {
    const prm = await ProcessRM.fromTiny({ seed: 0 });
    const activations = await prm.stepActivations([[problem, solution]], { layer: 1 });
    expect(activations.value.hiddenSize).toBe(64);
    expect(activations.value.values[0]!.length).toBe(3 * 64);
    const inner = await prm.stepScores([[problem, solution]], { layer: 0 });
    expect(inner.notes).toContain('read at layer 0 of 2');
  });

  it('throws UnsupportedCapabilityError naming the flag before any forward pass', async () => {
    const tiny = createTinyBackend(createRandomDecoder({ seed: 0 }));
    const counted = countingBackend(tiny);
    const restricted = Object.assign(Object.create(null), counted, { capabilities: capabilitiesOf('SCORES'), doForward: counted.doForward });
    const prm = ProcessRM.fromBackend(restricted, createByteBpeTokenizer());
    const error = await prm.stepScores([[problem, solution]]).catch((caught: unknown) => caught);
    expect(UnsupportedCapabilityError.isInstance(error)).toBe(true);
    expect((error as UnsupportedCapabilityError).capability).toBe('STEP_SCORES');
    await expect(prm.prefixScores([[problem, solution]])).rejects.toThrow(/PREFIX_SCORES/);
    await expect(prm.stepActivations([[problem, solution]], { layer: 1 })).rejects.toThrow(/ACTIVATIONS/);
    expect(counted.forwardCalls).toBe(0);
    await prm.score([[problem, solution]]);
    expect(counted.forwardCalls).toBe(1);
  });

  it("reports inputs it cannot score and scores the rest with onInvalid: 'report'", async () => {
    const prm = await ProcessRM.fromTiny({ seed: 0 });
    const inputs = [[problem, solution], { problem } as never, [problem, '   '], { problem, steps: ['a=1', 'b=2'] }] as const;
    const steps = await prm.stepScores(inputs, { onInvalid: 'report' });
    expect(steps.value.errors.map((error) => error?.code ?? null)).toEqual([null, 'INVALID_INPUT', 'INVALID_INPUT', null]);
    expect(steps.value.stepCounts).toEqual([3, 0, 0, 2]);
    expect(steps.value.curves[1]).toHaveLength(0);
    expect(steps.value.meta[2]!.notes[0]).toMatch(/^not scored: INVALID_INPUT: /);
    const alone = await prm.stepScores([[problem, solution], { problem, steps: ['a=1', 'b=2'] }]);
    expect(steps.value.curves[0]).toEqual(alone.value.curves[0]);
    expect(steps.value.curves[3]).toEqual(alone.value.curves[1]);
    const outcome = await prm.score(inputs, { onInvalid: 'report' });
    expect(Number.isNaN(outcome.value.values[1]!)).toBe(true);
    expect(outcome.value.values[0]).toBe(alone.value.curves[0]![2]);
    // Without it, the first bad input throws for the call.
    await expect(prm.stepScores(inputs)).rejects.toThrow(/pair 1/);
  });

  it('rejects malformed input with typed errors that say where', async () => {
    const prm = await ProcessRM.fromTiny({ seed: 0 });
    await expect(prm.score([problem, solution] as never)).rejects.toThrow(/wrap a single \[problem, solution\] pair in a list/);
    await expect(prm.score([[problem, solution], { problem } as never])).rejects.toThrow(/pair 1: "solution"/);
    await expect(prm.score([[problem, '   ']])).rejects.toBeInstanceOf(InvalidInputError);
    expect(() =>
      ProcessRM.fromBackend(createTinyBackend(createRandomDecoder({ seed: 0 })), createByteBpeTokenizer(), { recipe: { ...prm.recipe, head: 'lm' } }),
    ).toThrow(/reads one output with identity, but head "lm" gives 512/);
  });

  it('names the failing input in every batch error, and refuses an unknown onInvalid', async () => {
    const prm = await ProcessRM.fromTiny({ seed: 0 });
    await expect(
      prm.stepScores([
        [problem, solution],
        [problem, solution],
        [problem, '  '],
      ]),
    ).rejects.toThrow(/^pair 2: solution: the solution is empty/);
    const long = Array.from({ length: 200 }, (_, index) => `Step ${index}: ${index} + 1 = ${index + 1}.`).join('\n');
    const tooLong = await prm
      .score([
        [problem, solution],
        [problem, long],
      ])
      .catch((caught: unknown) => caught);
    expect((tooLong as Error).message).toMatch(/^pair 1: sequence of \d+ tokens is longer than the model's \d+ positions/);
    expect((tooLong as { code: string }).code).toBe('SEQUENCE_TOO_LONG');
    await expect(prm.score([[problem, solution]], { onInvalid: 'skip' as never })).rejects.toThrow(/onInvalid must be 'throw' or 'report', got "skip"/);
  });

  it('a model whose weights give NaN fails with a typed error naming the model, never null scores', async () => {
    const model = createRandomDecoder({ seed: 0 });
    model.tensors.get('model.layers.1.mlp.down_proj.weight')!.fill(Number.NaN);
    const prm = ProcessRM.fromBackend(createTinyBackend(model), createByteBpeTokenizer());
    for (const call of [() => prm.stepScores([[problem, solution]]), () => prm.score([[problem, solution]], { onInvalid: 'report' })]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(NonFiniteOutputError.isInstance(error)).toBe(true);
      expect((error as NonFiniteOutputError).message).toMatch(/^pair 0: model llama hidden=64 .* on backend "tiny" produced NaN at token position \d+/);
    }
  });
});
