import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRandomDecoder, type BackendV1 } from '@reward-lens/spec';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { formatRatio, sideBySide } from '@reward-lens/bench-harness';
import { createOnnxNodeBackend } from '../src/index.js';
import { batchSize, headReadRequest, headReadScenarios, largeVocabularyConfig, sequenceLength, type HeadReadScenario } from './head-reads-model.js';

interface Variant {
  label: string;
  graph: string;
  /** Copy every row out of the output, as reads were served before views. */
  copyRows: boolean;
}

function peakMemory(variant: Variant, scenario: HeadReadScenario): { afterLoadMiB: number; peakMiB: number } {
  const script = fileURLToPath(new URL('./head-reads-memory.ts', import.meta.url));
  const child = spawnSync(process.execPath, [...process.execArgv, script, variant.graph, scenario, variant.copyRows ? 'copy' : 'view'], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`the memory probe failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { afterLoadMiB: number; peakMiB: number };
}

/**
 * (d) Heads computed where they are read, on a 32,000-token vocabulary: the graph with
 * `read_positions` (what `reward-lens export onnx` and the in-memory export now write) against the
 * standard graph (the head at every position, as before and as Optimum exports are), on the
 * same backend, alternated pair by pair; then each variant's peak memory, one forward in a
 * process of its own.
 */
export async function headReads(): Promise<void> {
  const { hiddenSize, numLayers, vocabSize } = largeVocabularyConfig;
  console.log(
    `\n(d) heads where they are read: hidden ${hiddenSize}, ${numLayers} layers, vocabulary ${vocabSize} (untied LM head + value head), ${batchSize} × ${sequenceLength} tokens, 1 intra-op thread`,
  );
  const model = createRandomDecoder({ seed: 2, config: largeVocabularyConfig });
  const folder = await mkdtemp(join(tmpdir(), 'reward-lens-bench-'));
  try {
    const standardPath = join(folder, 'standard.onnx');
    const readsPath = join(folder, 'reads.onnx');
    await writeFile(standardPath, exportDecoderToOnnx(model, { withPast: false }));
    await writeFile(readsPath, exportDecoderToOnnx(model, { withPast: false, readPositions: true }));
    const options = { config: largeVocabularyConfig, intraOpThreads: 1 };
    const standard = await createOnnxNodeBackend(standardPath, options);
    const reads = await createOnnxNodeBackend(readsPath, options);
    const run = (backend: BackendV1, scenario: HeadReadScenario, copyRows: boolean) => async () => {
      const result = await backend.doForward(headReadRequest(scenario));
      if (copyRows) for (const read of result.reads) read.values = read.values.map((values) => values.slice());
    };
    for (const scenario of Object.keys(headReadScenarios) as HeadReadScenario[]) {
      const dense = scenario === 'full logits at every position';
      const before: Variant = { label: dense ? 'standard graph, rows copied' : 'standard graph', graph: standardPath, copyRows: dense };
      const after: Variant = { label: dense ? 'read graph, rows as views' : 'graph with read_positions', graph: readsPath, copyRows: false };
      const timing = await sideBySide(3, run(standard, scenario, before.copyRows), run(reads, scenario, after.copyRows));
      const memoryBefore = peakMemory(before, scenario);
      const memoryAfter = peakMemory(after, scenario);
      console.log(`  ${scenario}`);
      for (const [variant, seconds, memory] of [
        [before, timing.a, memoryBefore],
        [after, timing.b, memoryAfter],
      ] as const) {
        console.log(
          `    ${variant.label.padEnd(28)} ${seconds.toFixed(3)} s   peak RSS ${memory.peakMiB.toFixed(0).padStart(5)} MiB (${(memory.peakMiB - memory.afterLoadMiB).toFixed(0).padStart(5)} MiB above the loaded model)`,
        );
      }
      console.log(
        `    before/after: time ${formatRatio(timing.ratio)} (median of 3 alternated pairs), peak RSS ${formatRatio(memoryBefore.peakMiB / memoryAfter.peakMiB)}`,
      );
    }
    await standard.dispose();
    await reads.dispose();
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
