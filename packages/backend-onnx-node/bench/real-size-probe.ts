/**
 * One run of a real-size PRM folder on onnx-node, in a process of its own (backend-tiny's
 * `bench:7b` writes a Qwen2.5-Math-PRM-7B-shaped folder to /tmp/reward-lens-qwen-7b): the folder
 * loaded as `ProcessRM.fromPretrained` loads it for onnx-node (each matrix made `--dtype` as it is
 * read, then exported: in memory, or past 1.75 GiB through a temporary folder with external data),
 * then one forward pass of `--tokens` token ids reading the PRM head at four step ends
 * (`probeRealSize`: one JSON line with peak and settled resident memory, load and forward seconds,
 * the head's logits, comparable with the 7B bench's). As `fromPretrained` hands a weights folder to
 * onnx-node when it is named, the folder is read and exported by a worker thread that then ends
 * (`DecoderFolderSource`); with REWARD_LENS_PROBE_IN_PROCESS=1 it is read here and the model
 * exported from this process's heap instead (what `backend: 'auto'` does). Given a folder that
 * `reward-lens export onnx --dtype <dtype>` wrote, it runs the exported read-positions graph instead.
 *
 *   pnpm --filter @reward-lens/backend-onnx-node exec tsx --conditions=@reward-lens/source bench/real-size-probe.ts --folder /tmp/reward-lens-qwen-7b --dtype q4 --threads 2 --tokens 64
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { probeRealSize } from '@reward-lens/bench-harness';
import { resolveRecipe } from '@reward-lens/core';
import { loadDecoderFolder } from '@reward-lens/core/node';
import { onnxReadPositionsFileName } from '@reward-lens/core';
import { registerBackend, resolveBackend } from '@reward-lens/spec';
import { onnxNodeBackendRegistration } from '../src/index.js';

registerBackend(onnxNodeBackendRegistration);
await probeRealSize('classifier', async ({ folder, dtype, threads }) => {
  // A folder `reward-lens export onnx --dtype <dtype>` wrote: its read-positions graph, as fromPretrained picks it.
  const graph = join(folder, 'onnx', onnxReadPositionsFileName(dtype));
  if (existsSync(graph))
    return (await resolveBackend('onnx-node', { kind: 'onnx', path: graph, weightDtype: dtype, description: graph }, { dtype, threads })).backend;
  const heads = resolveRecipe('qwen2.5-math-prm').heads;
  if (process.env.REWARD_LENS_PROBE_IN_PROCESS !== '1')
    return (await resolveBackend('onnx-node', { kind: 'decoder-folder', folder, heads, dtype, description: folder }, { dtype, threads })).backend;
  const loaded = await loadDecoderFolder(folder, { heads, dtype });
  return (await resolveBackend('onnx-node', { kind: 'decoder', model: loaded.model, description: folder }, { dtype, threads })).backend;
});
