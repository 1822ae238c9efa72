import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRandomDecoder } from '@reward-lens/spec';
import { learnedSegmentation } from './learned-steps.js';
import { normalizeScoringInput } from './scoring-input.js';
import { tokenizePair, type TokenizeOptions } from './tokenize-pair.js';
import { trlTokenClassificationRecipe } from '../recipes/presets.js';
import { plainValueRecipe } from '../recipes/reading-recipe.js';
import { createReferenceBackend } from '../testing/reference/reference-backend.js';
import { createByteBpeTokenizer } from '@reward-lens/tokenizers';
import { readDetectionFeatures } from './detection-features.js';
import type { StepDetector } from '../step-detection/step-detector.js';
import { stepSpansAtTokenEnds } from '../step-detection/step-spans.js';

const tokenizer = createByteBpeTokenizer();
const options: TokenizeOptions = { delimiter: '\n', maxPositions: 1024, truncation: 'none' };
const word = fc.constantFrom('First,', '2+2=4.', 'Then', 'she', 'buys', '12', 'more.', 'The', 'answer', 'is', '7.', 'x', '(3*4)');
const solutionText = fc.array(word, { minLength: 2, maxLength: 14 }).map((words) => words.join(' '));
const detector: StepDetector = {
  format: 'reward-lens.step-detector',
  version: 1,
  name: 'any',
  model: { hiddenSize: 1, numLayers: 2, vocabSize: 512, recipe: 'plain-value' },
  layer: 0,
  lookahead: 0,
  probe: {
    format: 'reward-lens.probe',
    version: 1,
    inputs: 1,
    standardize: { mean: [0], scale: [1] },
    layers: [{ inputs: 1, outputs: 1, weight: [1], bias: [0], activation: 'none' }],
  },
  threshold: 0.5,
  heldOut: { precision: 1, recall: 1, f1: 1, boundaries: 1, solutions: 1, data: 'none' },
};

describe('learned steps go through the same layout as any steps', () => {
  for (const recipe of [plainValueRecipe, trlTokenClassificationRecipe]) {
    it(`${recipe.name}: boundaries at any token ends give the tokenization the same spans give through the detector seam`, () => {
      fc.assert(
        fc.property(solutionText, fc.array(fc.nat(), { maxLength: 6 }), (solution, picks) => {
          const problem = 'Compute it.';
          const layout = tokenizePair(tokenizer, recipe, { problem, steps: [solution] }, options);
          const [start, end] = layout.steps[0]!.charSpan;
          const tokenEnds = layout.offsets.filter(([a, b]) => b > a && b > start && a < end).map(([, b]) => Math.min(b, end) - start);
          const chosen = picks.map((pick) => tokenEnds[pick % tokenEnds.length]!);
          const spans = stepSpansAtTokenEnds(solution, chosen);
          const segmentation = learnedSegmentation(solution, { spans, boundaryProbabilities: spans.slice(1).map(() => 0.9) }, detector, 'test');
          const input = normalizeScoringInput([problem, solution], 'test');
          const learned = tokenizePair(tokenizer, recipe, input, { ...options, segmentation });
          const seam = tokenizePair(tokenizer, recipe, input, { ...options, detector: { name: 'seam', detect: () => spans } });
          if (spans.length < 2) {
            expect(learned.meta.stepMethod).toBe('single');
            return;
          }
          expect(learned.meta.stepMethod).toBe('learned');
          expect(learned.inputIds).toEqual(seam.inputIds);
          expect(learned.steps).toEqual(seam.steps);
          expect(learned.readPositions).toEqual(seam.readPositions);
          expect(learned.steps.map((step) => step.text)).toEqual(spans.map(([a, b]) => solution.slice(a, b)));
          // The last step is read at the final token (the outcome), every step at a token of its own text or its suffix.
          expect(learned.readPositions.at(-1)).toBe(learned.inputIds.length - 1);
          for (const step of learned.steps) {
            expect(step.readTokenIndex).toBeGreaterThanOrEqual(step.tokenSpan[0]);
            expect(learned.text.slice(...step.charSpan)).toBe(step.text);
          }
        }),
        { numRuns: 150 },
      );
    });
  }

  it('reads every token of the solution, in order, its features the hidden state there (and the next one with lookahead)', async () => {
    const model = createRandomDecoder({ seed: 2 });
    const backend = createReferenceBackend(model);
    const context = {
      backend,
      batchSize: 3,
      padding: 'right' as const,
      padTokenId: tokenizer.padTokenId,
      layOut: (problem: string, solution: string) => tokenizePair(tokenizer, plainValueRecipe, { problem, steps: [solution] }, options),
    };
    await fc.assert(
      fc.asyncProperty(fc.array(solutionText, { minLength: 1, maxLength: 4 }), async (solutions) => {
        const inputs = solutions.map((solution) => ({ problem: 'Compute it.', solution }));
        const [plain, ahead] = await Promise.all([
          readDetectionFeatures(context, inputs, { layers: [0, 2], lookahead: 0 }),
          readDetectionFeatures(context, inputs, { layers: [1], lookahead: 1 }),
        ]);
        inputs.forEach((input, index) => {
          const tokens = plain[index]!;
          expect(tokens.tokenSpans.map(([a, b]) => input.solution.slice(a, b)).join('')).toBe(input.solution);
          expect(tokens.features.map((values) => values.length)).toEqual([tokens.tokenSpans.length * 64, tokens.tokenSpans.length * 64]);
          // Layer 0 is the embeddings: each token's features are its embedding row.
          const pair = context.layOut(input.problem, input.solution);
          const ids = [...pair.inputIds].filter(
            (_, position) => pair.offsets[position]![1] > pair.steps[0]!.charSpan[0] && pair.offsets[position]![0] < pair.steps[0]!.charSpan[1],
          );
          const table = model.tensors.get('model.embed_tokens.weight')!;
          ids.forEach((id, token) =>
            expect([...tokens.features[0]!.subarray(token * 64, (token + 1) * 64)]).toEqual([...table.subarray(id * 64, (id + 1) * 64)]),
          );
          const widened = ahead[index]!;
          expect(widened.width).toBe(128);
          const [own, next] = [widened.features[0]!.subarray(0, 64), widened.features[0]!.subarray(128 + 0, 128 + 64)];
          expect([...widened.features[0]!.subarray(64, 128)]).toEqual([...next]);
          expect(own.some((value) => value !== 0)).toBe(true);
        });
      }),
      { numRuns: 12 },
    );
  });
});
