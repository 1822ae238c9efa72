import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRandomDecoder, tinyDecoderConfig, type DecoderModel, type HeadSpec } from '@reward-lens/spec';
import { afterAll } from 'vitest';
import { writeDecoderFolder } from '../../src/model-folder.js';

/**
 * The seeded tiny decoder written as a model folder (with a one-token tokenizer.json) in a fresh
 * temporary directory, removed after the calling file's tests: what the loading tests read back.
 * `heads` are the heads to load it with.
 */
export async function writeSeededFolder(prefix: string, seed: number): Promise<{ model: DecoderModel; heads: HeadSpec[]; folder: string }> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  afterAll(() => rm(root, { recursive: true, force: true }));
  const model = createRandomDecoder({ seed });
  const folder = join(root, 'model');
  await writeDecoderFolder(folder, { model, tokenizerJson: { model: { type: 'BPE', vocab: { a: 0 } } } });
  return { model, heads: tinyDecoderConfig.heads, folder };
}
