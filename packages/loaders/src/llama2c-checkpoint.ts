import { ModelLoadError, defineDecoderConfig, type DecoderConfig, type DecoderModel } from '@reward-lens/spec';

import { readFloat32LittleEndian } from './float-bytes.js';

/** The seven int32 of a legacy llama2.c checkpoint header. */
export interface Llama2cHeader {
  dim: number;
  hiddenDim: number;
  numLayers: number;
  numHeads: number;
  numKvHeads: number;
  /** Always positive here; the sign in the file says whether the classifier is shared. */
  vocabSize: number;
  seqLen: number;
  sharedClassifier: boolean;
}

const headerBytes = 7 * 4;

/**
 * Reads a legacy llama2.c checkpoint (`run.c`'s format) into Hugging Face tensor names.
 *
 * llama2.c rotates interleaved pairs (x[2i], x[2i+1]) while Hugging Face's `rotate_half` rotates
 * (x[i], x[i + d/2]). As transformers' `convert_llama_weights_to_hf.py` does, the rows of wq and
 * wk are permuted per head to [0, 2, 4, …, d-2, 1, 3, …, d-1], which makes the two give the same
 * attention. The stored freq_cis tables are skipped: they hold RoPE with theta 10000, which is
 * what the config says.
 */
export function parseLlama2cCheckpoint(bytes: Uint8Array, fileName: string): DecoderModel {
  const header = parseLlama2cHeader(bytes, fileName);
  const { dim, hiddenDim, numLayers, numHeads, numKvHeads, vocabSize, seqLen } = header;
  const headDim = dim / numHeads;
  const kvDim = numKvHeads * headDim;
  const layout: Array<[name: string, count: number]> = [
    ['token_embedding', vocabSize * dim],
    ['rms_att', numLayers * dim],
    ['wq', numLayers * dim * dim],
    ['wk', numLayers * kvDim * dim],
    ['wv', numLayers * kvDim * dim],
    ['wo', numLayers * dim * dim],
    ['rms_ffn', numLayers * dim],
    ['w1', numLayers * hiddenDim * dim],
    ['w2', numLayers * dim * hiddenDim],
    ['w3', numLayers * hiddenDim * dim],
    ['rms_final', dim],
    ['freq_cis_real', (seqLen * headDim) / 2],
    ['freq_cis_imag', (seqLen * headDim) / 2],
  ];
  if (!header.sharedClassifier) layout.push(['wcls', vocabSize * dim]);
  const expectedBytes = headerBytes + 4 * layout.reduce((sum, [, count]) => sum + count, 0);
  if (bytes.length !== expectedBytes) {
    const direction = bytes.length < expectedBytes ? 'truncated' : 'longer than its header says';
    throw new ModelLoadError(
      `llama2.c checkpoint is ${direction}: the header (${describeHeader(header)}) needs ${expectedBytes} bytes, the file has ${bytes.length}`,
      { file: fileName },
    );
  }
  const weights = new Map<string, Float32Array>();
  let offset = headerBytes;
  for (const [name, count] of layout) {
    weights.set(name, readFloat32LittleEndian(bytes, offset, count));
    offset += count * 4;
  }
  const config = llama2cDecoderConfig(header, fileName);
  const tensors = new Map<string, Float32Array>();
  const take = (name: string) => weights.get(name)!;
  const perLayer = (name: string, layer: number, size: number) =>
    take(name)
      .subarray(layer * size, (layer + 1) * size)
      .slice();
  tensors.set('model.embed_tokens.weight', take('token_embedding'));
  for (let layer = 0; layer < numLayers; layer++) {
    const prefix = `model.layers.${layer}`;
    tensors.set(`${prefix}.input_layernorm.weight`, perLayer('rms_att', layer, dim));
    tensors.set(`${prefix}.self_attn.q_proj.weight`, permuteRotaryRows(perLayer('wq', layer, dim * dim), numHeads, headDim, dim));
    tensors.set(`${prefix}.self_attn.k_proj.weight`, permuteRotaryRows(perLayer('wk', layer, kvDim * dim), numKvHeads, headDim, dim));
    tensors.set(`${prefix}.self_attn.v_proj.weight`, perLayer('wv', layer, kvDim * dim));
    tensors.set(`${prefix}.self_attn.o_proj.weight`, perLayer('wo', layer, dim * dim));
    tensors.set(`${prefix}.post_attention_layernorm.weight`, perLayer('rms_ffn', layer, dim));
    tensors.set(`${prefix}.mlp.gate_proj.weight`, perLayer('w1', layer, hiddenDim * dim));
    tensors.set(`${prefix}.mlp.down_proj.weight`, perLayer('w2', layer, dim * hiddenDim));
    tensors.set(`${prefix}.mlp.up_proj.weight`, perLayer('w3', layer, hiddenDim * dim));
  }
  tensors.set('model.norm.weight', take('rms_final'));
  if (!header.sharedClassifier) tensors.set('lm_head.weight', take('wcls'));
  return { config, tensors };
}

/** Reads and checks the header alone. */
export function parseLlama2cHeader(bytes: Uint8Array, fileName: string): Llama2cHeader {
  if (bytes.length < headerBytes) {
    throw new ModelLoadError(`llama2.c checkpoint is truncated: the header needs ${headerBytes} bytes, the file has ${bytes.length}`, { file: fileName });
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, headerBytes);
  const [dim, hiddenDim, numLayers, numHeads, numKvHeads, signedVocabSize, seqLen] = Array.from({ length: 7 }, (_, index) =>
    view.getInt32(index * 4, true),
  ) as [number, number, number, number, number, number, number];
  const header: Llama2cHeader = {
    dim,
    hiddenDim,
    numLayers,
    numHeads,
    numKvHeads,
    vocabSize: Math.abs(signedVocabSize),
    seqLen,
    // export.py writes a negative vocab_size when the classifier is not the embedding table.
    sharedClassifier: signedVocabSize > 0,
  };
  const problems: string[] = [];
  for (const key of ['dim', 'hiddenDim', 'numLayers', 'numHeads', 'numKvHeads', 'vocabSize', 'seqLen'] as const) {
    if (header[key] < 1) problems.push(`${key} ${header[key]} is not positive`);
  }
  if (problems.length === 0 && (dim % numHeads !== 0 || (dim / numHeads) % 2 !== 0))
    problems.push(`dim ${dim} is not a multiple of 2 × numHeads (${numHeads})`);
  if (problems.length === 0 && numHeads % numKvHeads !== 0) problems.push(`numHeads ${numHeads} is not a multiple of numKvHeads ${numKvHeads}`);
  if (problems.length > 0) {
    throw new ModelLoadError(`not a llama2.c checkpoint header (${describeHeader(header)}): ${problems.join('; ')}`, { file: fileName });
  }
  return header;
}

function describeHeader(header: Llama2cHeader): string {
  const { dim, hiddenDim, numLayers, numHeads, numKvHeads, vocabSize, seqLen, sharedClassifier } = header;
  const classifier = sharedClassifier ? 'shared classifier' : 'own classifier';
  return `dim ${dim}, hidden_dim ${hiddenDim}, n_layers ${numLayers}, n_heads ${numHeads}, n_kv_heads ${numKvHeads}, vocab_size ${vocabSize} (${classifier}), seq_len ${seqLen}`;
}

function llama2cDecoderConfig(header: Llama2cHeader, fileName: string): DecoderConfig {
  try {
    return defineDecoderConfig({
      architecture: 'llama',
      hiddenSize: header.dim,
      numLayers: header.numLayers,
      numHeads: header.numHeads,
      numKvHeads: header.numKvHeads,
      intermediateSize: header.hiddenDim,
      vocabSize: header.vocabSize,
      maxPositions: header.seqLen,
      // run.c's constants.
      ropeTheta: 10000,
      rmsNormEps: 1e-5,
      tieWordEmbeddings: header.sharedClassifier,
      attentionBias: false,
      heads: [{ name: 'lm', kind: 'lm' }],
    });
  } catch (error) {
    throw new ModelLoadError((error as Error).message, { file: fileName, cause: error });
  }
}

/**
 * Reorders the rows of each head of an `[heads × headDim, inputs]` projection from llama2.c's
 * interleaved rotary pairs to Hugging Face's halves: new row r < headDim/2 is old row 2r,
 * new row headDim/2 + r is old row 2r + 1.
 */
export function permuteRotaryRows(weight: Float32Array, heads: number, headDim: number, inputs: number): Float32Array {
  const permuted = new Float32Array(weight.length);
  const half = headDim / 2;
  for (let head = 0; head < heads; head++) {
    const base = head * headDim;
    for (let pair = 0; pair < half; pair++) {
      for (const [target, source] of [
        [base + pair, base + 2 * pair],
        [base + half + pair, base + 2 * pair + 1],
      ] as const) {
        permuted.set(weight.subarray(source * inputs, (source + 1) * inputs), target * inputs);
      }
    }
  }
  return permuted;
}
