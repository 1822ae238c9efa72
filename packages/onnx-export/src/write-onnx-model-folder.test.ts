import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRandomDecoder } from '@reward-lens/spec';
import { expectClose } from '@reward-lens/core/testing';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';
import { DataLocation, decodeModelProto, type OnnxTypes } from './graph/onnx.js';
import { exportDecoderToOnnx } from './index.js';
import { writeOnnxModelFolder } from './node.js';
import { runGraph, testSessionOptions } from '../test/support/run-graph.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-onnx-folder-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const model = createRandomDecoder({ seed: 9 });
const { config } = model;
const ids = [3, 14, 15, 92, 65, 35];

/** The value head at every position of `ids` (a read-positions graph is fed every column). */
async function scoresOf(source: string | Uint8Array): Promise<Float32Array> {
  const session =
    typeof source === 'string' ? await InferenceSession.create(source, testSessionOptions) : await InferenceSession.create(source, testSessionOptions);
  try {
    const every = new Tensor(
      'int64',
      BigInt64Array.from(ids, (_, index) => BigInt(index)),
      [1, ids.length],
    );
    const feeds = Object.fromEntries(session.inputNames.filter((name) => name.startsWith('read_positions.')).map((name) => [name, every]));
    const { outputs } = await runGraph(session, config, [{ ids }], undefined, feeds);
    return (outputs['scores.value'] ?? outputs['read.scores.value'])!.data as Float32Array;
  } finally {
    await session.release();
  }
}

describe('writeOnnxModelFolder', () => {
  it('writes the hub layout: graphs in onnx/, config.json with the heads, generation_config.json and the tokenizer at the root', async () => {
    const folder = join(root, 'inline');
    const tokenizerJson = { model: { type: 'BPE', vocab: { a: 0 } } };
    const result = await writeOnnxModelFolder(folder, {
      model,
      onnx: { withPast: true },
      tokenizerJson,
      tokenizerConfig: { bos_token: '<s>' },
      hfConfig: { bosTokenId: 1, eosTokenId: 2 },
    });
    expect(result).toEqual({
      files: ['onnx/model.onnx', 'onnx/model_read_positions.onnx', 'config.json', 'generation_config.json', 'tokenizer.json', 'tokenizer_config.json'],
      externalData: false,
    });
    expect((await readdir(folder)).sort()).toEqual(['config.json', 'generation_config.json', 'onnx', 'tokenizer.json', 'tokenizer_config.json']);
    expect(JSON.parse(await readFile(join(folder, 'generation_config.json'), 'utf8'))).toEqual({ bos_token_id: 1, eos_token_id: 2 });
    const hf = JSON.parse(await readFile(join(folder, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(hf).toMatchObject({ model_type: 'llama', hidden_size: 64, num_hidden_layers: 2, vocab_size: 512, num_key_value_heads: 2 });
    expect(hf.reward_lens).toMatchObject({
      onnx_with_past: true,
      onnx_hidden_states: false,
      onnx_read_positions_graph: 'onnx/model_read_positions.onnx',
      onnx_heads: [
        { name: 'value', kind: 'value', output: 'scores.value' },
        { name: 'classifier', kind: 'token-classification', numLabels: 2, output: 'class_logits.classifier' },
        { name: 'lm', kind: 'lm', output: 'logits' },
      ],
    });
    expect(JSON.parse(await readFile(join(folder, 'tokenizer.json'), 'utf8'))).toEqual(tokenizerJson);
    const expected = await scoresOf(exportDecoderToOnnx(model, { withPast: true }));
    expect(await scoresOf(join(folder, 'onnx', 'model.onnx'))).toEqual(expected);
    expectClose(await scoresOf(join(folder, 'onnx', 'model_read_positions.onnx')), expected, 1e-6, 'the read-positions graph');
  });

  it('moves weights to model.onnx_data above the threshold, and onnxruntime reads them back unchanged', async () => {
    const folder = join(root, 'external');
    const result = await writeOnnxModelFolder(folder, { model, onnx: { withPast: true }, externalDataThresholdBytes: 1000 });
    expect(result).toEqual({ files: ['onnx/model.onnx', 'onnx/model.onnx_data', 'onnx/model_read_positions.onnx', 'config.json'], externalData: true });
    const dataSize = (await stat(join(folder, 'onnx', 'model.onnx_data'))).size;
    // Both graphs point into the one data file.
    for (const name of ['model.onnx', 'model_read_positions.onnx']) {
      const modelBytes = await readFile(join(folder, 'onnx', name));
      const graph = decodeModelProto(modelBytes).graph as OnnxTypes.GraphProto;
      const external = graph.initializer.filter((tensor) => tensor.dataLocation === DataLocation.EXTERNAL);
      expect(external.map((tensor) => tensor.name)).toContain('model.embed_tokens.weight');
      expect(external.every((tensor) => tensor.externalData?.find((entry) => entry.key === 'location')?.value === 'model.onnx_data')).toBe(true);
      expect(modelBytes.byteLength).toBeLessThan(dataSize / 10);
    }
    const hf = JSON.parse(await readFile(join(folder, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(hf['transformers.js_config']).toEqual({ use_external_data_format: true });
    const expected = await scoresOf(exportDecoderToOnnx(model, { withPast: true }));
    expect(await scoresOf(join(folder, 'onnx', 'model.onnx'))).toEqual(expected);
    expectClose(await scoresOf(join(folder, 'onnx', 'model_read_positions.onnx')), expected, 1e-6, 'the read-positions graph on the shared data');

    // Rewriting below the threshold removes the stale data file.
    await writeOnnxModelFolder(folder, { model, onnx: { withPast: true } });
    expect((await readdir(join(folder, 'onnx'))).sort()).toEqual(['model.onnx', 'model_read_positions.onnx']);
  });

  it('splits an already serialized graph, keeping the heads it was exported with', async () => {
    const folder = join(root, 'from-bytes');
    const bytes = exportDecoderToOnnx(model, { withPast: false, heads: ['value'] });
    const result = await writeOnnxModelFolder(folder, {
      model,
      onnx: bytes,
      externalDataThresholdBytes: 0,
      externalTensorThresholdBytes: 4096,
      layout: 'flat',
    });
    expect(result).toEqual({ files: ['model.onnx', 'model.onnx_data', 'config.json'], externalData: true });
    const hf = JSON.parse(await readFile(join(folder, 'config.json'), 'utf8')) as { reward_lens: Record<string, unknown> };
    expect(hf.reward_lens).toEqual({
      onnx_heads: [{ name: 'value', kind: 'value', weight: 'v_head.weight', bias: 'v_head.bias', output: 'scores.value' }],
      onnx_with_past: false,
      onnx_hidden_states: false,
    });
    expect(await scoresOf(join(folder, 'model.onnx'))).toEqual(await scoresOf(bytes));
  });
});
