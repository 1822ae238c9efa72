import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createRandomDecoder,
  defineDecoderConfig,
  isDecoderFolderSource,
  isDecoderSource,
  type ModelSource,
  registerBackend,
  tinyDecoderConfig,
} from '@reward-lens/spec';
import { arenaPlacement } from '@reward-lens/spec/internal';
import type { LoadProgress } from '@reward-lens/loaders';
import { writeDecoderFolder } from '@reward-lens/loaders/node';
import { afterAll, describe, expect, it } from 'vitest';
import { recipePresets } from '../recipes/presets.js';
import { createReferenceBackend } from '../testing/reference/reference-backend.js';
import { byteLevelTokenizerJson, registerOracle } from '../../test/support/byte-level-folder.js';
import { ProcessRM } from './process-rm.js';

const recipe = recipePresets['trl-token-classification']!;
const model = createRandomDecoder({ seed: 4, config: defineDecoderConfig({ ...tinyDecoderConfig, vocabSize: 256, heads: recipe.heads }) });
const handed: ModelSource[] = [];
const remove = registerOracle('oracle-for-loading', model, handed);
// The float64 oracle again, declaring that it takes a weight arena (as backend-tiny does).
const arenaHanded: ModelSource[] = [];
const removeArena = registerBackend({
  name: 'oracle-taking-arena',
  priority: 0,
  explicitOnly: true,
  sourceKinds: ['decoder'],
  takesWeightArena: true,
  unavailableReason: () => null,
  async create(source) {
    arenaHanded.push(source);
    return createReferenceBackend((source as { model: typeof model }).model);
  },
});
const root = await mkdtemp(join(tmpdir(), 'reward-lens-pretrained-loading-'));
afterAll(async () => {
  remove();
  removeArena();
  await rm(root, { recursive: true, force: true });
});
const folder = join(root, 'prm');
await writeDecoderFolder(folder, { model, tokenizerJson: byteLevelTokenizerJson(), hfConfig: { architectures: ['LlamaForTokenClassification'] } });

describe('ProcessRM.fromPretrained loading', () => {
  it('reports progress; a backend that takes a weight arena gets the tensors in one, any other plain arrays', async () => {
    const events: LoadProgress[] = [];
    const memoriesOf = (source: ModelSource) =>
      new Set([...(source as { model: typeof model }).model.tensors.values()].map((tensor) => arenaPlacement(tensor)?.memory));
    const prm = await ProcessRM.fromPretrained(folder, { backend: 'oracle-taking-arena', onProgress: (progress) => events.push(progress) });
    const bytes = [...model.tensors.values()].reduce((sum, tensor) => sum + tensor.byteLength, 0);
    expect(events.at(-1)).toEqual({ file: join(folder, 'model.safetensors'), loaded: bytes, total: bytes });
    expect(isDecoderSource(arenaHanded.at(-1)!)).toBe(true);
    const memories = memoriesOf(arenaHanded.at(-1)!);
    expect(memories.size).toBe(1);
    expect([...memories][0]).toBeInstanceOf(WebAssembly.Memory);
    await prm.dispose();
    // A backend that copies the weights (onnx-node exports them) gets arrays of their own: nothing it keeps holds an arena.
    const plain = await ProcessRM.fromPretrained(folder, { backend: 'oracle-for-loading' });
    expect(memoriesOf(handed.at(-1)!)).toEqual(new Set([undefined]));
    await plain.dispose();
  });

  it('a backend named by the user that reads weights folders itself is handed the folder unread, with the heads, dtype, progress and signal', async () => {
    const folderHanded: ModelSource[] = [];
    const removeFolders = registerBackend({
      name: 'oracle-reading-folders',
      priority: 0,
      explicitOnly: true,
      sourceKinds: ['decoder', 'decoder-folder'],
      dtypes: ['fp32', 'q4'],
      unavailableReason: () => null,
      async create(source) {
        folderHanded.push(source);
        return createReferenceBackend(model);
      },
    });
    try {
      const controller = new AbortController();
      const onProgress = () => {};
      const prm = await ProcessRM.fromPretrained(folder, { backend: 'oracle-reading-folders', dtype: 'q4', onProgress, signal: controller.signal });
      const source = folderHanded.at(-1)!;
      expect(isDecoderFolderSource(source)).toBe(true);
      expect(source).toMatchObject({ folder, heads: recipe.heads, dtype: 'q4', onProgress, signal: controller.signal });
      expect(source.description).toBe(`the weights in ${folder}`);
      // Scored through the backend it made (the oracle over the same weights), tokenizer and recipe read here as before.
      const scored = await prm.stepScores([{ problem: 'p', steps: ['one', 'two'] }]);
      expect(scored.value.curves[0]).toHaveLength(2);
      await prm.dispose();
    } finally {
      removeFolders();
    }
  });

  it('stops at an aborted signal with its reason, before or while the weights are read', async () => {
    const reason = new Error('not now');
    await expect(ProcessRM.fromPretrained(folder, { backend: 'oracle-for-loading', signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    const controller = new AbortController();
    const before = handed.length;
    const error = await ProcessRM.fromPretrained(folder, {
      backend: 'oracle-for-loading',
      signal: controller.signal,
      onProgress: () => controller.abort(),
    }).catch((caught: unknown) => caught);
    expect((error as DOMException).name).toBe('AbortError');
    expect(handed.length, 'no backend was created').toBe(before);
  });
});
