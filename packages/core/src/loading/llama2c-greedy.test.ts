import { readFileSync } from 'node:fs';
import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import type { DecoderModel } from '../model/decoder-model.js';
import { convertLlama2cToHf } from './llama2c-conversion.js';
import { sharedDataPath } from './testing-shared-data.js';

/**
 * A plain Hugging Face-style Llama forward pass (RoPE by rotate_half) over the converted
 * tensors, one token at a time with a key/value cache. If the wq/wk permutation or any tensor
 * mapping were wrong, greedy decoding would drift from run.c's reference output.
 */
function createForward(model: DecoderModel) {
  const { hiddenSize, numLayers, numHeads, numKvHeads, headDim, intermediateSize, vocabSize, rmsNormEps, ropeTheta } = model.config;
  const tensor = (name: string) => model.tensors.get(name)!;
  const matrixTimes = (weight: Float32Array, input: Float64Array, rows: number) => {
    const output = new Float64Array(rows);
    for (let row = 0; row < rows; row++) {
      let sum = 0;
      for (let column = 0; column < input.length; column++) sum += weight[row * input.length + column]! * input[column]!;
      output[row] = sum;
    }
    return output;
  };
  const rmsNorm = (input: Float64Array, weight: Float32Array) => {
    const scale = 1 / Math.sqrt(input.reduce((sum, value) => sum + value * value, 0) / input.length + rmsNormEps);
    return input.map((value, index) => value * scale * weight[index]!);
  };
  const rotateHalf = (vector: Float64Array, heads: number, position: number) => {
    const half = headDim / 2;
    for (let head = 0; head < heads; head++) {
      for (let index = 0; index < half; index++) {
        const angle = position / ropeTheta ** ((2 * index) / headDim);
        const [first, second] = [vector[head * headDim + index]!, vector[head * headDim + index + half]!];
        vector[head * headDim + index] = first * Math.cos(angle) - second * Math.sin(angle);
        vector[head * headDim + index + half] = second * Math.cos(angle) + first * Math.sin(angle);
      }
    }
  };
  const keys: Float64Array[][] = Array.from({ length: numLayers }, () => []);
  const values: Float64Array[][] = Array.from({ length: numLayers }, () => []);
  const embedding = tensor('model.embed_tokens.weight');
  return (token: number, position: number): Float64Array => {
    let hidden = Float64Array.from(embedding.subarray(token * hiddenSize, (token + 1) * hiddenSize));
    for (let layer = 0; layer < numLayers; layer++) {
      const prefix = `model.layers.${layer}`;
      const normed = rmsNorm(hidden, tensor(`${prefix}.input_layernorm.weight`));
      const query = matrixTimes(tensor(`${prefix}.self_attn.q_proj.weight`), normed, numHeads * headDim);
      const key = matrixTimes(tensor(`${prefix}.self_attn.k_proj.weight`), normed, numKvHeads * headDim);
      rotateHalf(query, numHeads, position);
      rotateHalf(key, numKvHeads, position);
      keys[layer]!.push(key);
      values[layer]!.push(matrixTimes(tensor(`${prefix}.self_attn.v_proj.weight`), normed, numKvHeads * headDim));
      const attended = new Float64Array(numHeads * headDim);
      for (let head = 0; head < numHeads; head++) {
        const kvHead = Math.floor(head / (numHeads / numKvHeads));
        const scores = keys[layer]!.map((cached) => {
          let sum = 0;
          for (let index = 0; index < headDim; index++) sum += query[head * headDim + index]! * cached[kvHead * headDim + index]!;
          return sum / Math.sqrt(headDim);
        });
        const top = Math.max(...scores);
        const weights = scores.map((score) => Math.exp(score - top));
        const total = weights.reduce((sum, weight) => sum + weight, 0);
        weights.forEach((weight, step) => {
          for (let index = 0; index < headDim; index++) attended[head * headDim + index]! += (weight / total) * values[layer]![step]![kvHead * headDim + index]!;
        });
      }
      const projected = matrixTimes(tensor(`${prefix}.self_attn.o_proj.weight`), attended, hiddenSize);
      hidden = hidden.map((value, index) => value + projected[index]!);
      const normedAgain = rmsNorm(hidden, tensor(`${prefix}.post_attention_layernorm.weight`));
      const gate = matrixTimes(tensor(`${prefix}.mlp.gate_proj.weight`), normedAgain, intermediateSize);
      const up = matrixTimes(tensor(`${prefix}.mlp.up_proj.weight`), normedAgain, intermediateSize);
      const activated = gate.map((value, index) => (value / (1 + Math.exp(-value))) * up[index]!);
      const down = matrixTimes(tensor(`${prefix}.mlp.down_proj.weight`), activated, hiddenSize);
      hidden = hidden.map((value, index) => value + down[index]!);
    }
    return matrixTimes(embedding, rmsNorm(hidden, tensor('model.norm.weight')), vocabSize);
  };
}

describe('converted stories260K', () => {
  it('reproduces run.c greedy output with Hugging Face RoPE', () => {
    const conversion = convertLlama2cToHf(
      { bytes: readFileSync(sharedDataPath('stories260k/stories260K.bin')), fileName: 'stories260K.bin' },
      { bytes: readFileSync(sharedDataPath('stories260k/tok512.bin')), fileName: 'tok512.bin' },
    );
    const forward = createForward(conversion.model);
    // run.c: start from BOS, 200 positions, each prints the argmax of the next token.
    const ids = [1];
    for (let position = 0; position < 200; position++) {
      const logits = forward(ids[position]!, position);
      let best = 0;
      for (let index = 1; index < logits.length; index++) if (logits[index]! > logits[best]!) best = index;
      if (best === 1) break;
      ids.push(best);
    }
    const tokenizer = new Tokenizer(conversion.tokenizerJson, conversion.tokenizerConfig);
    expect(tokenizer.decode(ids, { skip_special_tokens: true })).toBe(readFileSync(sharedDataPath('stories260k/greedy-200.txt'), 'utf8'));
  });
});
