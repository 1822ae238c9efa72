import { createTinyBackend } from '@reward-lens/backend-tiny';
import { benchDecoderConfig, formatRatio, median, secondsAsync, sideBySide } from '@reward-lens/bench-harness';
import { defineDecoderConfig, recipePresets, type BackendV1 } from '@reward-lens/core';
import type { TrainingExample } from '../src/data/training-example.js';
import { batchLoss, batchRequest } from '../src/loss/batch-loss.js';
import { initializeDecoder } from '../src/model/initialize-decoder.js';
import { AdamW, clipGradientNorm } from '../src/optim/adamw.js';
import { TrainingRandom } from '../src/random.js';
import { ensureTorch, TorchSide } from './torch-side.js';

const recipe = recipePresets['trl-token-classification']!;
/** The bench model of every backend (hidden 256, 4 layers, 8 heads, intermediate 688) with the PRM head trained here. */
export const config = defineDecoderConfig({ ...benchDecoderConfig, tieWordEmbeddings: false, heads: recipe.heads });
const rows = 8;
const length = 160;
const readEvery = 16;

/** One batch: `rows` sequences of `length` tokens, a step boundary every 16 tokens, random labels. */
function batch(): TrainingExample[] {
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
  const model = initializeDecoder(config, 1);
  const backend = createTinyBackend(model, { kernels: 'wasm-simd' });
  const examples = batch();
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

  // 2. Training tokens/s against PyTorch on the same model and batch, 2 threads, alternately.
  const unavailable = ensureTorch();
  if (unavailable !== null) {
    console.log(`\nPyTorch comparison skipped: ${unavailable}`);
    await backend.dispose();
    return;
  }
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
  // Two PyTorch processes, on 2 threads (the comparison asked for) and on 1 (on a shared, loaded
  // machine a 2-thread OpenMP run can lose more to waiting than it gains), each timed alternately
  // with backend-tiny step by step.
  const sides = await Promise.all([2, 1].map((threads) => TorchSide.start(spec, threads)));
  try {
    for (const { side } of sides) await side.time('run', 2);
    await step();
    const ours: number[] = [];
    const forwardOurs: number[] = [];
    const theirs = sides.map(() => ({ train: [] as number[], forward: [] as number[] }));
    for (let pair = 0; pair < 5; pair++) {
      for (const [index, { side }] of sides.entries()) {
        ours.push(await secondsAsync(step));
        theirs[index]!.train.push((await side.time('run', 1))[0]!);
        forwardOurs.push(await secondsAsync(forward));
        theirs[index]!.forward.push((await side.time('forward', 1))[0]!);
      }
    }
    const ratioOf = (mine: number[], other: number[], offset: number) => median(other.map((value, index) => value / mine[index * sides.length + offset]!));
    console.log(
      `\ntraining tokens/s, backend-tiny (wasm-simd, 1 thread) vs PyTorch ${sides[0]!.info.torch} (OpenBLAS), same model and batch, 5 alternating pairs each:`,
    );
    console.log(
      `  backend-tiny          ${Math.round(tokens / median(ours))
        .toLocaleString('en-US')
        .padStart(7)} tokens/s  (${(median(ours) * 1000).toFixed(0)} ms a step)`,
    );
    sides.forEach(({ info }, index) => {
      const train = theirs[index]!.train;
      console.log(
        `  PyTorch, ${info.threads} thread${info.threads === 1 ? ' ' : 's'}    ${Math.round(tokens / median(train))
          .toLocaleString('en-US')
          .padStart(7)} tokens/s  (${(median(train) * 1000).toFixed(0)} ms a step)  ` +
          `ratio ${formatRatio(ratioOf(ours, train, index))}${info.threads === 2 ? ' (goal ≥ 0.5×)' : ''}; forward only ${formatRatio(ratioOf(forwardOurs, theirs[index]!.forward, index))}`,
      );
    });
  } finally {
    for (const { side } of sides) side.close();
    await backend.dispose();
  }
}
