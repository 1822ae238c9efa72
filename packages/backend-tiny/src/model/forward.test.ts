import { mlpClassifierHead, referenceForward, referenceHead } from '@reward-lens/core/testing';
import { describe, expect, it } from 'vitest';
import { createTinyBackend } from '../create-tiny-backend.js';
import type { KernelChoice } from '../kernels/kernel-choice.js';
import { batchRequest, range, relativeError } from '../../test/support/requests.js';
import { testModel, tokenIds } from '../../test/support/test-models.js';

// Observed errors are about 1e-7 on the scalar kernels (float32 rounding) and 2e-7 on wasm-simd
// (float32 accumulation too); the margin allows deeper or larger models.
const TOLERANCE = 1e-5;
const kernelChoices: KernelChoice[] = ['wasm-simd', 'scalar'];

const variants = [
  { name: 'multi-head attention, tied embeddings', overrides: {} },
  { name: 'grouped-query attention (4 heads / 2 kv)', overrides: { numKvHeads: 2 } },
  {
    name: 'multi-query attention (4 heads / 1 kv), untied, qkv biases',
    overrides: { numKvHeads: 1, tieWordEmbeddings: false, attentionBias: true, architecture: 'qwen2' as const },
  },
  { name: 'head dim not hidden / heads (8 per head, 6 heads / 3 kv)', overrides: { numHeads: 6, numKvHeads: 3, headDim: 8, ropeTheta: 500 } },
  {
    name: "Qwen2.5-Math-PRM's head (hidden layer, ReLU, 2 classes) read as the classifier",
    overrides: {
      architecture: 'qwen2' as const,
      attentionBias: true,
      heads: [
        { name: 'value', kind: 'value' as const, weight: 'v_head.weight', bias: 'v_head.bias' },
        { ...mlpClassifierHead, name: 'classifier' },
        { name: 'lm', kind: 'lm' as const },
      ],
    },
  },
];

describe.each(kernelChoices)('on %s kernels', (kernels) => {
  describe.each(variants)('forward matches the float64 oracle: $name', ({ overrides }) => {
    const model = testModel(7, overrides);
    const { config } = model;
    const ids = tokenIds(13, config.vocabSize);
    const reference = referenceForward(model, ids);
    const positions = range(ids.length);
    const final = reference.states[config.numLayers]!;

    it('every head, at every position, after the final norm', async () => {
      const backend = createTinyBackend(model, { kernels });
      const request = batchRequest([ids], () => config.heads.map((head) => ({ kind: 'head' as const, head: head.name, positions: [positions] })));
      const { reads } = await backend.doForward(request);
      config.heads.forEach((head, index) => {
        const expected = final.flatMap((state) => referenceHead(model, state, head.name));
        expect(reads[index]!.width).toBe(head.kind === 'lm' ? config.vocabSize : head.kind === 'value' ? 1 : head.numLabels);
        expect(relativeError(reads[index]!.values[0]!, expected)).toBeLessThan(TOLERANCE);
      });
    });

    it('hidden states after every layer, before the final norm', async () => {
      const backend = createTinyBackend(model, { kernels });
      const request = batchRequest([ids], () => range(config.numLayers + 1).map((layer) => ({ kind: 'hidden' as const, layer, positions: [positions] })));
      const { reads } = await backend.doForward(request);
      for (let layer = 0; layer <= config.numLayers; layer++) {
        expect(reads[layer]!.width).toBe(config.hiddenSize);
        expect(relativeError(reads[layer]!.values[0]!, reference.states[layer]!.flat())).toBeLessThan(TOLERANCE);
      }
    });

    it('a head read at inner layers applies the final norm and the head there (LINEAR_READOUT)', async () => {
      const backend = createTinyBackend(model, { kernels });
      const request = batchRequest([ids], () =>
        range(config.numLayers).map((layer) => ({ kind: 'head' as const, head: 'classifier', layer, positions: [[2, 12, 5]] })),
      );
      const { reads } = await backend.doForward(request);
      for (let layer = 0; layer < config.numLayers; layer++) {
        const expected = [2, 12, 5].flatMap((position) => referenceHead(model, reference.states[layer]![position]!, 'classifier'));
        expect(relativeError(reads[layer]!.values[0]!, expected)).toBeLessThan(TOLERANCE);
      }
    });

    it('lm columns read only the chosen rows of the head, in the order asked', async () => {
      const backend = createTinyBackend(model, { kernels });
      const columns = [9, 0, config.vocabSize - 1, 9];
      const request = batchRequest([ids], () => [{ kind: 'head' as const, head: 'lm', positions: [[12, 3]], columns }]);
      const { reads } = await backend.doForward(request);
      const expected = [12, 3].flatMap((position) => {
        const logits = referenceHead(model, final[position]!, 'lm');
        return columns.map((column) => logits[column]!);
      });
      expect(reads[0]!.width).toBe(columns.length);
      expect(relativeError(reads[0]!.values[0]!, expected)).toBeLessThan(TOLERANCE);
    });
  });

  describe('forward details', () => {
    it('sequences longer than one attention block of queries', async () => {
      const model = testModel(8, { numKvHeads: 2, numLayers: 2 });
      const ids = tokenIds(64, model.config.vocabSize, 3);
      const final = referenceForward(model, ids).states[2]!;
      const backend = createTinyBackend(model, { kernels });
      const { reads } = await backend.doForward(batchRequest([ids], () => [{ kind: 'head', head: 'classifier', positions: [range(64)] }]));
      expect(
        relativeError(
          reads[0]!.values[0]!,
          final.flatMap((state) => referenceHead(model, state, 'classifier')),
        ),
      ).toBeLessThan(TOLERANCE);
    });

    it('returns values in the order of the requested positions, repeats included', async () => {
      const model = testModel(3);
      const backend = createTinyBackend(model, { kernels });
      const ids = tokenIds(6, model.config.vocabSize);
      const all = await backend.doForward(batchRequest([ids], () => [{ kind: 'head', head: 'value', positions: [range(6)] }]));
      const picked = await backend.doForward(batchRequest([ids], () => [{ kind: 'head', head: 'value', positions: [[4, 1, 4]] }]));
      const values = all.reads[0]!.values[0]!;
      expect([...picked.reads[0]!.values[0]!]).toEqual([values[4], values[1], values[4]]);
    });

    it('a token classifier without bias and a value head without bias', async () => {
      const heads = [
        { name: 'value', kind: 'value' as const, weight: 'v_head.weight' },
        { name: 'classifier', kind: 'token-classification' as const, numLabels: 2, weight: 'score.weight' },
      ];
      const model = testModel(4, { heads, numLayers: 1 });
      const ids = tokenIds(5, model.config.vocabSize);
      const final = referenceForward(model, ids).states[1]!;
      const backend = createTinyBackend(model, { kernels });
      const { reads } = await backend.doForward(
        batchRequest([ids], () => heads.map((head) => ({ kind: 'head' as const, head: head.name, positions: [range(5)] }))),
      );
      heads.forEach((head, index) => {
        expect(
          relativeError(
            reads[index]!.values[0]!,
            final.flatMap((state) => referenceHead(model, state, head.name)),
          ),
        ).toBeLessThan(TOLERANCE);
      });
    });
  });
});
