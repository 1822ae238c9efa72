import { readFileSync } from 'node:fs';
import { Tokenizer } from '@huggingface/tokenizers';
import { sharedDataPath } from '@reward-lens/test-data';
import { byteLevelBytesOf, expectExactOffsets, loadLenmlTokenizer, stepText, withAddedTokens } from '@reward-lens/test-data/tokenizer-checks';
import { byteLevelTokenBytes, createHfTokenizer } from '@reward-lens/tokenizers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapSpanToReadToken, mapStepsToTokens } from './map-steps-to-tokens.js';
import { segmentSolution } from './segment-solution.js';

// Steps mapped to the tokens of real tokenizers (@reward-lens/tokenizers' own tests check the encodings).

describe('steps on Qwen3 tokens (byte-level BPE, NFC; `<extra_0>` as Qwen2.5-Math-PRM has it)', () => {
  const { json, config } = loadLenmlTokenizer('qwen3');
  const stepTag = { content: '<extra_0>', id: 151651 };
  const tokenizer = createHfTokenizer(json, config, { addedTokens: [stepTag] });
  const reference = new Tokenizer(withAddedTokens(json, [stepTag]), config);
  const bytesOf = byteLevelBytesOf(withAddedTokens(json, [stepTag]), byteLevelTokenBytes);
  const nfc = (text: string) => text.normalize('NFC');

  it('reads each step at the token holding its last character (ProcessRM layout)', () => {
    fc.assert(
      fc.property(fc.array(stepText, { minLength: 2, maxLength: 5 }), fc.boolean(), (steps, tagged) => {
        const solution = steps.join(tagged ? '<extra_0>' : '\n') + (tagged ? '<extra_0>' : '');
        const { steps: segmented } = segmentSolution(solution, { delimiter: tagged ? '<extra_0>' : '\n' });
        const { ids, offsets } = tokenizer.encode(solution);
        const stepSpans = segmented.map((step) => step.charSpan);
        mapStepsToTokens(stepSpans, offsets, { lastStepReadsFinalToken: false }).forEach((step, index) => {
          const [start, end] = offsets[step.readTokenIndex]!;
          const lastCharacter = stepSpans[index]![1] - 1;
          expect(start).toBeLessThanOrEqual(lastCharacter);
          expect(end).toBeGreaterThan(lastCharacter);
        });
        if (tagged) {
          const tagStarts = [...solution.matchAll(/<extra_0>/g)].map((match) => match.index);
          expect(tagStarts).toHaveLength(steps.length);
          for (const tagStart of tagStarts) {
            const tagToken = mapSpanToReadToken([tagStart, tagStart + 9], offsets);
            expect(ids[tagToken]).toBe(151651);
            expect(offsets[tagToken]).toEqual([tagStart, tagStart + 9]);
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('lays out real ProcessBench solutions as Qwen2.5-Math-PRM reads them', () => {
    const items = JSON.parse(readFileSync(sharedDataPath('processbench/gsm8k.json'), 'utf8')) as { problem: string; steps: string[] }[];
    for (const item of items.slice(0, 40)) {
      const prefix = `${item.problem}\n\n`;
      const text = `${prefix}${item.steps.join('<extra_0>')}<extra_0>`;
      const encoding = tokenizer.encode(text);
      expect(encoding.ids).toEqual(reference.encode(text, { add_special_tokens: false }).ids);
      expectExactOffsets(text, encoding, bytesOf, nfc);
      const { steps } = segmentSolution(text.slice(prefix.length), { delimiter: '<extra_0>' });
      expect(steps).toHaveLength(item.steps.length);
      const stepSpans = steps.map((step): [number, number] => [prefix.length + step.charSpan[0], prefix.length + step.charSpan[1]]);
      mapStepsToTokens(stepSpans, encoding.offsets, { lastStepReadsFinalToken: false }).forEach((step, index) => {
        const [start, end] = encoding.offsets[step.readTokenIndex]!;
        expect(start < stepSpans[index]![1] && end >= stepSpans[index]![1]).toBe(true);
      });
      const tagStarts = [...text.matchAll(/<extra_0>/g)].map((match) => match.index);
      const tagTokens = encoding.ids.flatMap((id, index) => (id === 151651 ? [encoding.offsets[index]![0]] : []));
      expect(tagTokens).toEqual(tagStarts);
    }
  });
});

describe('steps on Llama-3 tokens (byte-level BPE)', () => {
  const { json, config } = loadLenmlTokenizer('llama3');
  const tokenizer = createHfTokenizer(json, config);

  it('reads each step at the token holding its last character (ProcessRM layout)', () => {
    fc.assert(
      fc.property(fc.array(stepText, { minLength: 2, maxLength: 5 }), fc.constantFrom('\n', '\n\n', ' ки\n'), (steps, delimiter) => {
        const solution = steps.join(delimiter);
        const { steps: segmented } = segmentSolution(solution, { delimiter });
        const { offsets } = tokenizer.encode(solution);
        const stepSpans = segmented.map((step) => step.charSpan);
        mapStepsToTokens(stepSpans, offsets, { lastStepReadsFinalToken: false }).forEach((step, index) => {
          const [start, end] = offsets[step.readTokenIndex]!;
          const lastCharacter = stepSpans[index]![1] - 1;
          expect(start).toBeLessThanOrEqual(lastCharacter);
          expect(end).toBeGreaterThan(lastCharacter);
        });
      }),
      { numRuns: 100 },
    );
  });
});
