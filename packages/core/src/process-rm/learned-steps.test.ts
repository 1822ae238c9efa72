import { describe, expect, it } from 'vitest';
import { type BackendV1, Capability, createRandomDecoder } from '@reward-lens/spec';

import { trlTokenClassificationRecipe } from '../recipes/presets.js';
import type { StepDetector } from '../step-detection/step-detector.js';
import { createReferenceBackend } from '../testing/reference/reference-backend.js';
import { tokenDetector } from '../testing/token-detector.js';
import { createByteBpeTokenizer, type PrmTokenizer } from '@reward-lens/tokenizers';
import { ProcessRM } from './process-rm.js';

const model = createRandomDecoder({ seed: 3 });
const tokenizer = createByteBpeTokenizer();
const sentenceEnd = tokenizer.encode('a. b').ids[1]!; // the ". " token

/** Fires at the ". " token: a step ends after every sentence. */
function sentenceEndDetector(overrides: Partial<StepDetector> = {}): StepDetector {
  return { ...tokenDetector(model, sentenceEnd, { name: 'sentence-ends' }), heldOut: { ...heldOut }, ...overrides };
}
const heldOut = { precision: 0.99, recall: 0.98, f1: 0.985, boundaries: 100, solutions: 40, data: 'a test fixture' };

const problem = 'Compute (2+2)*3-5.';
const oneLine = 'First, 2+2=4. Then, 4*3=12. Finally, 12-5=7.';
const sentences = ['First, 2+2=4.', 'Then, 4*3=12.', 'Finally, 12-5=7.'];

/** The same spans through the text-only detector seam: learned steps must be read exactly as these. */
const spansOf = (text: string) => sentences.map((sentence): [number, number] => [text.indexOf(sentence), text.indexOf(sentence) + sentence.length]);

function forwardOnlyWithoutActivations(backend: BackendV1): BackendV1 {
  return {
    ...backend,
    capabilities: backend.capabilities & ~Capability.ACTIVATIONS,
    doForward: (request) => backend.doForward(request),
    dispose: () => backend.dispose(),
  };
}

describe('the learned step-boundary detector in ProcessRM', () => {
  const prm = ProcessRM.fromBackend(createReferenceBackend(model), tokenizer, { stepDetector: sentenceEndDetector() });

  it("splits a one-line solution ('auto'), says so in meta, and scores it exactly as the same spans from the delimiter path", async () => {
    const pair = await prm.segment([problem, oneLine]);
    expect(pair.steps.map((step) => step.text)).toEqual(sentences);
    expect(pair.meta.stepMethod).toBe('learned');
    expect(pair.meta.stepDetection).toMatch(/^no delimiter "\\n" found: 3 steps found by the learned step-boundary detector "sentence-ends"/);
    expect(pair.meta.stepDetection).toMatch(/held-out precision 0\.990, recall 0\.980/);
    expect(pair.meta.stepDetector).toMatchObject({ name: 'sentence-ends', layer: 0, heldOut: { precision: 0.99, recall: 0.98 } });
    expect(pair.meta.stepDetector!.boundaryProbabilities).toHaveLength(2);
    for (const probability of pair.meta.stepDetector!.boundaryProbabilities) expect(probability).toBeGreaterThan(0.99);

    const steps = await prm.stepScores([[problem, oneLine]]);
    const outcome = await prm.score([[problem, oneLine]]);
    expect(steps.value.stepCounts).toEqual([3]);
    expect(steps.value.curves[0]![2]).toBe(outcome.value.values[0]);
    expect(steps.notes.some((note) => note.includes('learned step-boundary detector "sentence-ends"'))).toBe(true);

    const byRule = ProcessRM.fromBackend(createReferenceBackend(model), tokenizer, {
      stepDetection: 'delimiter',
      detector: { name: 'rule', detect: spansOf },
    });
    const ruled = byRule.tokenize([problem, oneLine]);
    expect(pair.inputIds).toEqual(ruled.inputIds);
    expect(pair.steps).toEqual(ruled.steps);
    expect([...steps.value.curves[0]!]).toEqual([...(await byRule.stepScores([[problem, oneLine]])).value.curves[0]!]);
  });

  it('lays learned steps out as the recipe lays out any steps (TRL: each step with its separator)', async () => {
    const trl = ProcessRM.fromBackend(createReferenceBackend(model), tokenizer, {
      recipe: trlTokenClassificationRecipe,
      stepDetector: sentenceEndDetector({ model: { ...sentenceEndDetector().model, recipe: trlTokenClassificationRecipe.name } }),
    });
    const pair = await trl.segment([problem, oneLine]);
    expect(pair.meta.stepMethod).toBe('learned');
    expect(pair.text).toBe(`${problem}${sentences.join('\n')}\n`);
    expect(pair.steps.map((step) => pair.text.slice(...step.charSpan))).toEqual(sentences);
    const given = trl.tokenize({ problem, steps: sentences });
    expect(pair.inputIds).toEqual(given.inputIds);
    expect(pair.steps).toEqual(given.steps);
    expect(pair.readPositions).toEqual(given.readPositions);
  });

  it("leaves delimited solutions to the delimiter under 'auto', and splits them anyway under 'learned'", async () => {
    const delimited = 'First, 2+2=4. Then,\n4*3=12. Finally, 12-5=7.';
    expect((await prm.segment([problem, delimited])).meta).toMatchObject({ stepMethod: 'delimiter', nSteps: 2 });
    const learned = ProcessRM.fromBackend(createReferenceBackend(model), tokenizer, { stepDetection: 'learned', stepDetector: sentenceEndDetector() });
    const pair = await learned.segment([problem, delimited]);
    expect(pair.meta).toMatchObject({ stepMethod: 'learned', nSteps: 3 });
    expect(pair.meta.stepDetection).toMatch(/^step detection 'learned' \(the delimiter is not used\): 3 steps/);
    // Given steps are the caller's: no detector touches them.
    expect((await learned.segment({ problem, steps: ['a', 'b'] })).meta.stepMethod).toBe('given');
  });

  it("says when the detector finds no boundary, and when it is not run ('delimiter', tokenize)", async () => {
    const pair = await prm.segment([problem, 'a solution without any sentence end']);
    expect(pair.meta).toMatchObject({ stepMethod: 'single', nSteps: 1 });
    expect(pair.meta.stepDetection).toMatch(/no delimiter "\\n" found, and the learned step-boundary detector "sentence-ends" .* found no step boundary/);
    expect(prm.tokenize([problem, oneLine]).meta.stepDetection).toMatch(
      /runs in the scoring methods and prm\.segment\(\), not in the synchronous tokenize\(\)/,
    );
    const off = ProcessRM.fromBackend(createReferenceBackend(model), tokenizer, { stepDetection: 'delimiter', stepDetector: sentenceEndDetector() });
    expect((await off.segment([problem, oneLine])).meta.stepDetection).toMatch(
      /Step detection is 'delimiter', so the learned detector "sentence-ends" was not run/,
    );
    const none = ProcessRM.fromBackend(createReferenceBackend(model), tokenizer);
    expect((await none.segment([problem, oneLine])).meta.stepDetection).toMatch(/This model has no learned step-boundary detector/);
  });

  it('reports an input it cannot score and goes on, learned steps for the others', async () => {
    const result = await prm.stepScores(
      [
        [problem, oneLine],
        [problem, '   '],
        [problem, oneLine],
      ],
      { onInvalid: 'report' },
    );
    expect(result.value.stepCounts).toEqual([3, 0, 3]);
    expect(result.value.errors[1]).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it("refuses 'learned' without a usable detector before any work; under 'auto' the notes say why it was not used", async () => {
    const backend = createReferenceBackend(model);
    expect(() => ProcessRM.fromBackend(backend, tokenizer, { stepDetection: 'learned' })).toThrow(/needs a learned step-boundary detector/);
    const wrongModel = sentenceEndDetector({ model: { ...sentenceEndDetector().model, hiddenSize: 32 } });
    expect(() => ProcessRM.fromBackend(backend, tokenizer, { stepDetector: wrongModel })).toThrow(/the probe reads 64 features; hidden size 32/);
    const wrongRecipe = sentenceEndDetector({ model: { ...sentenceEndDetector().model, recipe: 'math-shepherd' } });
    expect(() => ProcessRM.fromBackend(backend, tokenizer, { stepDetection: 'learned', stepDetector: wrongRecipe })).toThrow(
      /fitted for recipe "math-shepherd", the model is read with "plain-value"/,
    );
    const unused = ProcessRM.fromBackend(backend, tokenizer, { stepDetector: wrongRecipe });
    expect(unused.stepDetector).toBeUndefined();
    expect((await unused.segment([problem, oneLine])).meta.stepDetection).toMatch(/fitted for recipe "math-shepherd".*so it is not used/);
    const blind = forwardOnlyWithoutActivations(backend);
    expect(() => ProcessRM.fromBackend(blind, tokenizer, { stepDetection: 'learned', stepDetector: sentenceEndDetector() })).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_CAPABILITY', capability: 'ACTIVATIONS' }),
    );
    expect((await ProcessRM.fromBackend(blind, tokenizer, { stepDetector: sentenceEndDetector() }).segment([problem, oneLine])).meta.stepDetection).toMatch(
      /reads hidden states \(ACTIVATIONS\), which backend "reference" does not give/,
    );
    expect(() => ProcessRM.fromBackend(backend, tokenizer, { stepDetection: 'sometimes' as never })).toThrow(
      /stepDetection must be one of auto, learned, delimiter/,
    );
  });

  it('settles steps before tokenizing: the detector reads one layout, then the pair is tokenized once with the steps it found', async () => {
    const encoded: string[] = [];
    const encode = (text: string) => {
      encoded.push(text);
      return tokenizer.encode(text);
    };
    const counting: PrmTokenizer = Object.assign(Object.create(tokenizer) as PrmTokenizer, { encode });
    const counted = ProcessRM.fromBackend(createReferenceBackend(model), counting, { stepDetector: sentenceEndDetector() });
    const pair = await counted.segment([problem, oneLine]);
    expect(pair.meta.stepMethod).toBe('learned');
    // Whole-text tokenization: one encode per layout (the detector's one-step layout, the scoring layout).
    expect(encoded.filter((text) => text.includes(oneLine))).toHaveLength(2);
    encoded.length = 0;
    await counted.segment([problem, sentences.join('\n')]);
    expect(encoded.filter((text) => text.includes(problem))).toHaveLength(1);
  });
});
