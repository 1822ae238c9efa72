import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ModelLoadError, validateDecoderModel } from '@reward-lens/spec';

import { parseLlama2cCheckpoint, permuteRotaryRows } from './llama2c-checkpoint.js';
import { sharedDataPath } from '@reward-lens/test-data';

const checkpointBytes = new Uint8Array(readFileSync(sharedDataPath('stories260k/stories260K.bin')));
const model = parseLlama2cCheckpoint(checkpointBytes, 'stories260K.bin');

/** llama2.c's RoPE: rotate the interleaved pairs (x[2i], x[2i+1]) of one head. */
function rotateInterleaved(vector: Float64Array, position: number): Float64Array {
  const rotated = new Float64Array(vector.length);
  for (let index = 0; index < vector.length; index += 2) {
    const angle = position / 10000 ** (index / vector.length);
    const [first, second] = [vector[index]!, vector[index + 1]!];
    rotated[index] = first * Math.cos(angle) - second * Math.sin(angle);
    rotated[index + 1] = first * Math.sin(angle) + second * Math.cos(angle);
  }
  return rotated;
}

/** Hugging Face's RoPE: `x * cos + rotate_half(x) * sin`, pairing x[i] with x[i + d/2]. */
function rotateHalves(vector: Float64Array, position: number): Float64Array {
  const half = vector.length / 2;
  const rotated = new Float64Array(vector.length);
  for (let index = 0; index < half; index++) {
    const angle = position / 10000 ** ((2 * index) / vector.length);
    const [first, second] = [vector[index]!, vector[index + half]!];
    rotated[index] = first * Math.cos(angle) - second * Math.sin(angle);
    rotated[index + half] = second * Math.cos(angle) + first * Math.sin(angle);
  }
  return rotated;
}

/** Rows [head × headDim, (head + 1) × headDim) of an [out, inputs] matrix times `input`. */
function projectHead(weight: Float32Array, head: number, headDim: number, input: Float64Array): Float64Array {
  const output = new Float64Array(headDim);
  for (let row = 0; row < headDim; row++) {
    let sum = 0;
    for (let column = 0; column < input.length; column++) sum += weight[(head * headDim + row) * input.length + column]! * input[column]!;
    output[row] = sum;
  }
  return output;
}

const dot = (left: Float64Array, right: Float64Array) => left.reduce((sum, value, index) => sum + value * right[index]!, 0);

describe('llama2.c checkpoint', () => {
  it('reads stories260K.bin into a Llama config with Hugging Face tensor names', () => {
    expect(model.config).toMatchObject({
      architecture: 'llama',
      hiddenSize: 64,
      intermediateSize: 172,
      numLayers: 5,
      numHeads: 8,
      numKvHeads: 4,
      headDim: 8,
      vocabSize: 512,
      maxPositions: 512,
      ropeTheta: 10000,
      rmsNormEps: 1e-5,
      tieWordEmbeddings: true,
      heads: [{ name: 'lm', kind: 'lm' }],
    });
    expect(() => validateDecoderModel(model, 'stories260K.bin')).not.toThrow();
    expect(model.tensors.has('lm_head.weight')).toBe(false);
    // The first embedding value sits right after the 28-byte header.
    expect(model.tensors.get('model.embed_tokens.weight')![0]).toBe(new DataView(checkpointBytes.buffer, checkpointBytes.byteOffset).getFloat32(28, true));
  });

  it('permutes wq and wk so that rotate_half gives llama2.c attention scores', () => {
    const { hiddenSize: dim, vocabSize, headDim } = model.config;
    // Layer 0 of wq and wk as stored: header, embedding, rms_att (5 layers), then wq (5 layers).
    const wqOffset = 28 + 4 * (vocabSize * dim + 5 * dim);
    const wkOffset = wqOffset + 4 * 5 * dim * dim;
    const originalWq = new Float32Array(checkpointBytes.slice(wqOffset, wqOffset + 4 * dim * dim).buffer);
    const originalWk = new Float32Array(checkpointBytes.slice(wkOffset, wkOffset + 4 * 4 * headDim * dim).buffer);
    const permutedWq = model.tensors.get('model.layers.0.self_attn.q_proj.weight')!;
    const permutedWk = model.tensors.get('model.layers.0.self_attn.k_proj.weight')!;
    const input = Float64Array.from({ length: dim }, (_, index) => Math.sin(index * 1.7) + 0.3);
    const [queryHead, keyHead, queryPosition, keyPosition] = [5, 2, 37, 11];

    const llamaQuery = rotateInterleaved(projectHead(originalWq, queryHead, headDim, input), queryPosition);
    const hfQuery = rotateHalves(projectHead(permutedWq, queryHead, headDim, input), queryPosition);
    for (let pair = 0; pair < headDim / 2; pair++) {
      expect(hfQuery[pair]).toBeCloseTo(llamaQuery[2 * pair]!, 10);
      expect(hfQuery[pair + headDim / 2]).toBeCloseTo(llamaQuery[2 * pair + 1]!, 10);
    }
    const llamaKey = rotateInterleaved(projectHead(originalWk, keyHead, headDim, input), keyPosition);
    const hfKey = rotateHalves(projectHead(permutedWk, keyHead, headDim, input), keyPosition);
    expect(dot(hfQuery, hfKey)).toBeCloseTo(dot(llamaQuery, llamaKey), 10);
    // Without the permutation the scores would differ.
    const unpermutedQuery = rotateHalves(projectHead(originalWq, queryHead, headDim, input), queryPosition);
    expect(
      Math.abs(dot(unpermutedQuery, rotateHalves(projectHead(originalWk, keyHead, headDim, input), keyPosition)) - dot(llamaQuery, llamaKey)),
    ).toBeGreaterThan(1e-3);
  });

  it('orders each head as [0, 2, 4, …, 1, 3, 5, …]', () => {
    const rows = Float32Array.from({ length: 2 * 4 }, (_, index) => index);
    expect([...permuteRotaryRows(rows, 2, 4, 1)]).toEqual([0, 2, 1, 3, 4, 6, 5, 7]);
  });

  it('reads an unshared classifier (negative vocab_size) as lm_head.weight', () => {
    const [dim, hidden, layers, heads, kvHeads, vocab, seqLen] = [4, 6, 1, 2, 1, 5, 3];
    const headDim = dim / heads;
    const floats =
      vocab * dim + layers * (dim + dim * dim + 2 * headDim * kvHeads * dim + dim * dim + dim + 3 * hidden * dim) + dim + seqLen * headDim + vocab * dim;
    const bytes = new Uint8Array(28 + 4 * floats);
    const view = new DataView(bytes.buffer);
    [dim, hidden, layers, heads, kvHeads, -vocab, seqLen].forEach((value, index) => view.setInt32(4 * index, value, true));
    for (let index = 0; index < floats; index++) view.setFloat32(28 + 4 * index, index, true);
    const unshared = parseLlama2cCheckpoint(bytes, 'unshared.bin');
    expect(unshared.config.tieWordEmbeddings).toBe(false);
    expect(unshared.config.vocabSize).toBe(5);
    expect([...unshared.tensors.get('lm_head.weight')!]).toEqual(Array.from({ length: vocab * dim }, (_, index) => floats - vocab * dim + index));
    expect(() => validateDecoderModel(unshared, 'unshared.bin')).not.toThrow();
  });

  it('rejects truncated or oversized files and nonsense headers, naming the file and the byte counts', () => {
    const truncated = checkpointBytes.slice(0, checkpointBytes.length - 100);
    expect(() => parseLlama2cCheckpoint(truncated, 'stories260K.bin')).toThrow(ModelLoadError);
    expect(() => parseLlama2cCheckpoint(truncated, 'stories260K.bin')).toThrow(
      new RegExp(`^stories260K\\.bin: llama2\\.c checkpoint is truncated: .* needs ${checkpointBytes.length} bytes, the file has ${truncated.length}$`),
    );
    const longer = new Uint8Array(checkpointBytes.length + 4);
    longer.set(checkpointBytes);
    expect(() => parseLlama2cCheckpoint(longer, 'longer.bin')).toThrow(/^longer\.bin: llama2\.c checkpoint is longer than its header says/);
    expect(() => parseLlama2cCheckpoint(checkpointBytes.slice(0, 10), 'tiny.bin')).toThrow(/^tiny\.bin: .*needs 28 bytes, the file has 10/);
    const badHeader = checkpointBytes.slice();
    new DataView(badHeader.buffer).setInt32(16, 3, true);
    expect(() => parseLlama2cCheckpoint(badHeader, 'bad.bin')).toThrow(
      /^bad\.bin: not a llama2\.c checkpoint header .*numHeads 8 is not a multiple of numKvHeads 3/,
    );
  });
});
