import { createTinyBackend } from '@reward-lens/backend-tiny';
import { benchDecoderConfig, formatRatio, median, secondsAsync, sideBySide, threadCounts, ensureTorch } from '@reward-lens/bench-harness';
import { defineDecoderConfig, recipePresets, type BackendV1 } from '@reward-lens/core';
import type { TrainingExample } from '../src/data/training-example.js';
import { batchLoss, batchRequest } from '../src/loss/batch-loss.js';
import { initializeDecoder } from '../src/model/initialize-decoder.js';
import { AdamW, clipGradientNorm } from '../src/optim/adamw.js';
import { TrainingRandom } from '../src/random.js';
import { TorchSide } from './torch-side.js';

const recipe = recipePresets['trl-token-classification']!;
/** The bench model of every backend (hidden 256, 4 layers, 8 heads, intermediate 688) with the PRM head trained here. */
export const config = defineDecoderConfig({ ...benchDecoderConfig, tieWordEmbeddings: false, heads: recipe.heads });
const readEvery = 16;

/** One batch: `rows` sequences of `length` tokens, a step boundary every 16 tokens, random labels. */
function batch(rows: number, length: number): TrainingExample[] {
  const random = new TrainingRandom(7);
  return Array.from({ length: rows }, (_, row) => {
    const inputIds = Int32Array.from({ length }, () => 4 + Math.floor(random.next() * (config.vocabSize - 4)));
    const readPositions = Array.from({ length: length / readEvery }, (_, step) => (step + 1) * readEvery - 1);
    const targets = readPositions.map(() => (random.next() < 0.7 ? 1 : 0));
    return {
      record: { id: `bench-${row}`, problem: '', steps: readPositions.map(() => 'x'), stepLabels: targets },
      inputIds,
      readPositions,
      targets,
      correctText: [1, 1],
    };
  });
}

/** One training step as the trainer takes it: forward and backward, clipping, AdamW, the weights refreshed on the backend. */
function trainStep(backend: BackendV1, optimizer: AdamW, examples: TrainingExample[], tensors: ReadonlyMap<string, Float32Array>) {
  const request = batchRequest(examples, recipe, undefined, 0);
  return async () => {
    const result = await backend.doBackward!({
      ...request,
      wrt: { parameters: true, inputEmbeddings: false },
      readGradients: (reads) => batchLoss(examples, reads, recipe).gradients,
    });
    clipGradientNorm(result.parameters!, 1);
    optimizer.step(result.parameters!, 3e-4);
    await backend.doUpdateParameters!(tensors);
  };
}

export async function compareTraining(): Promise<void> {
  const rows = 8;
  const length = 160;
  const model = initializeDecoder(config, 1);
  const backend = createTinyBackend(model, { kernels: 'wasm-simd', threads: 1 });
  const examples = batch(rows, length);
  const request = batchRequest(examples, recipe, undefined, 0);
  const step = trainStep(backend, new AdamW(model.tensors), examples, model.tensors);
  const forward = () => backend.doForward(request);
  const tokens = rows * length;
  const parameters = [...model.tensors.values()].reduce((sum, tensor) => sum + tensor.length, 0);
  console.log(`\nbatch: ${rows} × ${length} tokens (${tokens}), a step boundary every ${readEvery} tokens; ${parameters.toLocaleString('en-US')} parameters`);

  // 1. A training step against a forward pass on the same batch, alternately.
  const ratio = await sideBySide(5, step, forward);
  console.log('\none training step (forward + backward + clip + AdamW) vs one forward pass, backend-tiny (wasm-simd), 5 alternating pairs:');
  console.log(
    `  training step  ${(ratio.a * 1000).toFixed(0).padStart(6)} ms  ${Math.round(tokens / ratio.a)
      .toLocaleString('en-US')
      .padStart(7)} tokens/s`,
  );
  console.log(
    `  forward pass   ${(ratio.b * 1000).toFixed(0).padStart(6)} ms  ${Math.round(tokens / ratio.b)
      .toLocaleString('en-US')
      .padStart(7)} tokens/s`,
  );
  console.log(`  ratio          ${formatRatio(ratio.ratio)} (goal ≤ 3.5×)`);

  await backend.dispose();
  await compareThreads();
}

/** A backend-tiny trainer on `threads` threads: its own copy of the model, optimizer and batch. */
function tinyTrainer(threads: number, examples: TrainingExample[]) {
  const model = initializeDecoder(config, 1);
  const backend = createTinyBackend(model, { kernels: 'wasm-simd', threads });
  return { backend, step: trainStep(backend, new AdamW(model.tensors), examples, model.tensors) };
}

/**
 * Training tokens/s on 1, 2, 4, ... threads (up to the cores) on a batch of 4,096 tokens (16 ×
 * 256), side by side, then against PyTorch on the same model, batch and thread counts (1 and 2).
 */
async function compareThreads(): Promise<void> {
  const rows = 16;
  const length = 256;
  const tokens = rows * length;
  const examples = batch(rows, length);
  const counts = threadCounts();
  const trainers = new Map(counts.map((threads) => [threads, tinyTrainer(threads, examples)]));
  for (const { step } of trainers.values()) await step();
  const rounds = 5;
  const times = new Map<number, number[]>(counts.map((threads) => [threads, []]));
  for (let round = 0; round < rounds; round++) {
    for (const threads of counts) times.get(threads)!.push(await secondsAsync(trainers.get(threads)!.step));
  }
  console.log(`\ntraining steps on threads, batch ${rows} × ${length} (${tokens} tokens), median of ${rounds} alternating rounds:`);
  for (const threads of counts) {
    const seconds = median(times.get(threads)!);
    const ratio = median(times.get(1)!.map((time, round) => time / times.get(threads)![round]!));
    console.log(
      `  ${String(threads).padStart(2)} thread${threads === 1 ? ' ' : 's'} ${(seconds * 1000).toFixed(0).padStart(6)} ms  ${Math.round(tokens / seconds)
        .toLocaleString('en-US')
        .padStart(7)} tokens/s  ${formatRatio(ratio)} one thread${threads === 2 ? ' (goal ≥ 1.7×)' : ''}`,
    );
  }

  const unavailable = ensureTorch();
  if (unavailable !== null) {
    console.log(`\nPyTorch comparison skipped: ${unavailable}`);
  } else {
    const spec = {
      seed: 1,
      hidden: config.hiddenSize,
      layers: config.numLayers,
      heads: config.numHeads,
      kvHeads: config.numKvHeads,
      intermediate: config.intermediateSize,
      vocab: config.vocabSize,
      rows,
      length,
      inputIds: examples.flatMap((example) => [...example.inputIds]),
      positions: examples.map((example) => example.readPositions),
      labels: examples.flatMap((example) => example.targets),
    };
    // A PyTorch process per thread count, each timed alternately with backend-tiny on as many threads, step by step.
    const torchCounts = [1, 2].filter((threads) => trainers.has(threads));
    const sides = await Promise.all(torchCounts.map((threads) => TorchSide.start(spec, threads)));
    try {
      for (const { side } of sides) await side.time('run', 2);
      console.log(
        `\ntraining tokens/s, backend-tiny (wasm-simd) vs PyTorch ${sides[0]!.info.torch} (OpenBLAS) on as many threads, same model and batch, 5 alternating pairs each:`,
      );
      for (const [index, { side }] of sides.entries()) {
        const threads = torchCounts[index]!;
        const ours: number[] = [];
        const theirs: number[] = [];
        for (let pair = 0; pair < 5; pair++) {
          ours.push(await secondsAsync(trainers.get(threads)!.step));
          theirs.push((await side.time('run', 1))[0]!);
        }
        const ratio = median(theirs.map((value, pair) => value / ours[pair]!));
        console.log(
          `  ${threads} thread${threads === 1 ? ' ' : 's'}: backend-tiny ${Math.round(tokens / median(ours))
            .toLocaleString('en-US')
            .padStart(7)} tokens/s, PyTorch ${Math.round(tokens / median(theirs))
            .toLocaleString('en-US')
            .padStart(7)} tokens/s: ratio ${formatRatio(ratio)}${threads === 2 ? ' (goal ≥ 0.5×)' : ''}`,
        );
      }
    } finally {
      for (const { side } of sides) side.close();
    }
  }
  for (const { backend } of trainers.values()) await backend.dispose();
}
