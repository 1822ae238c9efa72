/**
 * One run of the 7B bench in a process of its own: the folder loaded as `ProcessRM.fromPretrained`
 * loads it for backend-tiny (each matrix made `--dtype` as it is read, into a weight arena), then
 * one forward pass of `--tokens` token ids reading the PRM head at four step ends (`probeRealSize`:
 * one JSON line with peak and settled resident memory, load and forward seconds, the head's logits).
 */
import { probeRealSize } from '@reward-lens/bench-harness';
import { loadDecoderFolder } from '@reward-lens/core/node';
import { createWeightArena } from '@reward-lens/spec/internal';
import { createTinyBackendAsync } from '../../src/index.js';
import { qwen7bConfig } from './qwen-7b-folder.js';

await probeRealSize('classifier', async ({ folder, dtype, threads }) => {
  const arena = createWeightArena();
  const loaded = await loadDecoderFolder(folder, {
    heads: qwen7bConfig.heads,
    dtype,
    ...(arena ? { allocate: (count: number) => arena.allocate(count), allocateBytes: (bytes: number) => arena.allocateBytes(bytes) } : {}),
  });
  return createTinyBackendAsync(loaded.model, { threads });
});
