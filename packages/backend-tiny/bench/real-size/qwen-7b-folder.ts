import { open, mkdir, writeFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveRecipe } from '@reward-lens/core';
import { defineDecoderConfig, expectedTensorShapes, type DecoderConfig } from '@reward-lens/spec';

/** Qwen2.5-Math-PRM-7B's shape: hidden 3584, 28 layers, 28 heads, 4 key/value heads, intermediate 18944, vocabulary 152,064, its 2-class MLP head. */
export const qwen7bConfig: DecoderConfig = defineDecoderConfig({
  architecture: 'qwen2',
  hiddenSize: 3584,
  numLayers: 28,
  numHeads: 28,
  numKvHeads: 4,
  intermediateSize: 18944,
  vocabSize: 152064,
  maxPositions: 4096,
  ropeTheta: 1e6,
  rmsNormEps: 1e-6,
  tieWordEmbeddings: false,
  attentionBias: true,
  heads: resolveRecipe('qwen2.5-math-prm').heads,
});

export const qwen7bHfConfig = {
  architectures: ['Qwen2ForProcessRewardModel'],
  model_type: 'qwen2',
  hidden_size: 3584,
  intermediate_size: 18944,
  num_hidden_layers: 28,
  num_attention_heads: 28,
  num_key_value_heads: 4,
  max_position_embeddings: 4096,
  rope_theta: 1e6,
  rms_norm_eps: 1e-6,
  vocab_size: 152064,
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
  num_labels: 2,
};

/** The tensors by name and shape, in the order they are written, and the shard each goes to. */
export function tensorLayout(config: DecoderConfig, shards: number): { name: string; shape: number[]; shard: number }[] {
  const tensors = [...expectedTensorShapes(config)].map(([name, shape]) => ({ name, shape }));
  const total = tensors.reduce((sum, tensor) => sum + tensor.shape.reduce((product, size) => product * size, 1), 0);
  let written = 0;
  return tensors.map((tensor) => {
    const shard = Math.min(shards - 1, Math.floor((written * shards) / total));
    written += tensor.shape.reduce((product, size) => product * size, 1);
    return { ...tensor, shard };
  });
}

/**
 * Random BF16 weights for `tensor`, written a chunk at a time: norms 1, everything else uniform
 * with standard deviation 0.02 (0.002 for the embedding table, as a trained one is small), from
 * a per-tensor xorshift stream so that any reader can reproduce them.
 */
function* bf16Chunks(name: string, count: number, seed: number): Generator<Uint16Array> {
  const norm = name.endsWith('layernorm.weight') || name === 'model.norm.weight';
  const scale = (name === 'model.embed_tokens.weight' ? 0.002 : 0.02) * Math.sqrt(3);
  let state = (seed ^ [...name].reduce((hash, character) => Math.imul(hash ^ character.charCodeAt(0), 16777619), 2166136261)) >>> 0 || 1;
  const floats = new Float32Array(1);
  const bits = new Uint32Array(floats.buffer);
  const chunk = 1 << 22;
  for (let start = 0; start < count; start += chunk) {
    const values = new Uint16Array(Math.min(chunk, count - start));
    if (norm) values.fill(0x3f80);
    else {
      for (let index = 0; index < values.length; index++) {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        floats[0] = ((state >>> 0) / 4294967296 - 0.5) * 2 * scale;
        values[index] = bits[0]! >>> 16;
      }
    }
    yield values;
  }
}

/**
 * Writes a Qwen2.5-Math-PRM-7B-shaped folder of random BF16 weights in `shards` safetensors files
 * with `model.safetensors.index.json`, streamed (nothing the size of the model is held), unless
 * `folder` already holds it. The tokenizer is a placeholder: the bench feeds token ids.
 */
export async function writeQwen7bFolder(folder: string, { shards = 4, seed = 7, layers = qwen7bConfig.numLayers } = {}): Promise<void> {
  const config = layers === qwen7bConfig.numLayers ? qwen7bConfig : { ...qwen7bConfig, numLayers: layers };
  const layout = tensorLayout(config, shards);
  const fileName = (shard: number) => `model-${String(shard + 1).padStart(5, '0')}-of-${String(shards).padStart(5, '0')}.safetensors`;
  const indexPath = join(folder, 'model.safetensors.index.json');
  if (
    await stat(indexPath).then(
      () => true,
      () => false,
    )
  )
    return;
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'config.json'), JSON.stringify({ ...qwen7bHfConfig, num_hidden_layers: layers }, null, 2));
  await writeFile(join(folder, 'tokenizer.json'), JSON.stringify({ model: { type: 'BPE', vocab: { a: 0 }, merges: [] } }));
  for (let shard = 0; shard < shards; shard++) {
    const tensors = layout.filter((tensor) => tensor.shard === shard);
    const header: Record<string, unknown> = {};
    let offset = 0;
    for (const { name, shape } of tensors) {
      const bytes = shape.reduce((product, size) => product * size, 1) * 2;
      header[name] = { dtype: 'BF16', shape, data_offsets: [offset, offset + bytes] };
      offset += bytes;
    }
    let json = JSON.stringify(header);
    json += ' '.repeat((8 - (json.length % 8)) % 8);
    const file = await open(join(folder, fileName(shard)), 'w');
    try {
      const length = Buffer.alloc(8);
      length.writeBigUInt64LE(BigInt(json.length));
      await file.write(length);
      await file.write(Buffer.from(json, 'utf8'));
      for (const { name, shape } of tensors) {
        for (const values of bf16Chunks(
          name,
          shape.reduce((product, size) => product * size, 1),
          seed,
        )) {
          await file.write(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
        }
      }
    } finally {
      await file.close();
    }
  }
  const weightMap = Object.fromEntries(layout.map((tensor) => [tensor.name, fileName(tensor.shard)]));
  await writeFile(indexPath, JSON.stringify({ metadata: {}, weight_map: weightMap }));
}
