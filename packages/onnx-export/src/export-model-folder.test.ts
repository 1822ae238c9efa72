import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRandomDecoder, ModelLoadError, tinyDecoderConfig } from '@reward-lens/spec';
import { writeDecoderFolder } from '@reward-lens/loaders/node';
import { afterAll, describe, expect, it } from 'vitest';
import { exportModelFolder } from './node.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-export-folder-'));
afterAll(() => rm(root, { recursive: true, force: true }));

describe('exportModelFolder', () => {
  it('exports a Hugging Face folder as an ONNX folder with the tokenizer files copied byte for byte', async () => {
    const source = join(root, 'hf');
    const model = createRandomDecoder({ seed: 3 });
    await writeDecoderFolder(source, { model, tokenizerJson: { model: { type: 'BPE' } }, tokenizerConfig: { eos_token: '</s>' } });
    await writeFile(join(source, 'special_tokens_map.json'), '{"eos_token": "</s>"}\n');
    await writeFile(join(source, 'generation_config.json'), '{"bos_token_id": 1, "eos_token_id": [2, 1]}\n');
    const out = join(root, 'onnx-out');
    const result = await exportModelFolder(source, out, { heads: tinyDecoderConfig.heads, hiddenStates: true });
    expect(result.files).toEqual([
      'onnx/model.onnx',
      'onnx/model_read_positions.onnx',
      'config.json',
      'generation_config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'special_tokens_map.json',
    ]);
    expect(result.externalData).toBe(false);
    expect((await readdir(out)).sort()).toEqual([
      'config.json',
      'generation_config.json',
      'onnx',
      'special_tokens_map.json',
      'tokenizer.json',
      'tokenizer_config.json',
    ]);
    expect(JSON.parse(await readFile(join(out, 'generation_config.json'), 'utf8'))).toEqual({ bos_token_id: 1, eos_token_id: [2, 1] });
    for (const name of ['tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json']) {
      expect(await readFile(join(out, name), 'utf8')).toBe(await readFile(join(source, name), 'utf8'));
    }
    const hf = JSON.parse(await readFile(join(out, 'config.json'), 'utf8')) as { reward_lens: { onnx_with_past: boolean; onnx_hidden_states: boolean } };
    expect(hf.reward_lens).toMatchObject({ onnx_with_past: true, onnx_hidden_states: true });
  });

  it('passes on the loader errors, naming the file', async () => {
    const error = await exportModelFolder(join(root, 'missing'), join(root, 'never'), { heads: [] }).catch((caught: unknown) => caught);
    expect(ModelLoadError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('missing');
  });
});
