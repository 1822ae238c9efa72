import { describe, expect, it } from 'vitest';
import { createRandomDecoder } from '@reward-lens/spec';
import { trlLikelihoodRecipe, trlTokenClassificationRecipe } from '../recipes/presets.js';
import { createReferenceBackend } from '../testing/reference/reference-backend.js';
import { createByteBpeTokenizer } from '@reward-lens/tokenizers';
import { ProcessRM } from './process-rm.js';

const problem = 'Add the numbers one by one.';
const steps = ['First 1 + 2 = 3.', 'Then 3 + 4 = 7.', 'Then 7 + 5 = 12.', 'So the answer is 12.'];
// The float64 oracle over random weights: the bound and the classifier's scores, computed two ways.
const model = createRandomDecoder({ seed: 5 });
const backend = createReferenceBackend(model);
const tokenizer = createByteBpeTokenizer();
const bounded = ProcessRM.fromBackend(backend, tokenizer, { recipe: trlLikelihoodRecipe });
const classifier = ProcessRM.fromBackend(backend, tokenizer, { recipe: trlTokenClassificationRecipe });

/** The least probability the LM gave each solution token up to each step's read position, computed here from full logits. */
async function expectedFloors(input: { problem: string; steps: string[] }): Promise<number[]> {
  const pair = bounded.tokenize(input);
  const ids = pair.inputIds;
  const { reads } = await backend.doForward({
    batchSize: 1,
    sequenceLength: ids.length,
    inputIds: ids,
    attentionMask: new Uint8Array(ids.length).fill(1),
    reads: [{ kind: 'head', head: 'lm', positions: [Array.from({ length: ids.length }, (_, position) => position)] }],
  });
  const logits = reads[0]!.values[0]!;
  const width = reads[0]!.width;
  const start = pair.steps[0]!.tokenSpan[0];
  return pair.readPositions.map((read) => {
    let least = 1;
    for (let position = start; position <= read; position++) {
      const row = Array.from(logits.subarray((position - 1) * width, position * width));
      const max = Math.max(...row);
      const total = row.reduce((sum, value) => sum + Math.exp(value - max), 0);
      least = Math.min(least, Math.exp(row[ids[position]!]! - max) / total);
    }
    return least;
  });
}

describe('a recipe with a likelihood head', () => {
  it('bounds each step by the least probability the model gave a solution token up to it, in one pass', async () => {
    const input = { problem, steps };
    const [scores, plain, floors] = await Promise.all([bounded.stepScores([input]), classifier.stepScores([input]), expectedFloors(input)]);
    const curve = scores.value.curves[0]!;
    floors.forEach((floor, step) => expect(curve[step]).toBeCloseTo(Math.min(plain.value.curves[0]![step]!, floor), 6));
    // The outcome is the last step's bounded score.
    expect((await bounded.score([input])).value.values[0]).toBe(curve[steps.length - 1]);
  });

  it('gives a scored prefix the same bounded scores as a full pass, extension by extension', async () => {
    let prefix = await bounded.prefix(problem);
    for (let count = 1; count <= steps.length; count++) {
      const next = await prefix.extend(steps[count - 1]!);
      const full = (await bounded.stepScores([{ problem, steps: steps.slice(0, count) }])).value.curves[0]!;
      Array.from(full).forEach((score, step) => expect(next.stepScores[step]).toBeCloseTo(score, 6));
      // Siblings extend the same checkpoint: each is bounded by its own tokens only.
      const [a, b] = await prefix.extendMany([steps[count - 1]!, 'Then 99 + 1 = 3.']);
      expect(a!.stepScores[count - 1]).toBeCloseTo(full[count - 1]!, 6);
      const sibling = (await bounded.stepScores([{ problem, steps: [...steps.slice(0, count - 1), 'Then 99 + 1 = 3.'] }])).value.curves[0]!;
      expect(b!.stepScores[count - 1]).toBeCloseTo(sibling[count - 1]!, 6);
      a!.release();
      b!.release();
      prefix.release();
      prefix = next;
    }
    prefix.release();
  });
});
