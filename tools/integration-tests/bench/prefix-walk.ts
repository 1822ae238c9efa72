// Prefix reuse at real size (issue 23): an 8-step walk with `ProcessRM.prefix` against re-scoring
// every prefix from scratch, and the first extension against re-scoring step 1, on a
// Qwen2-0.5B-shaped PRM (random weights, Qwen2.5-Math-PRM's recipe and head, the Qwen2 BPE) on
// backend-tiny and onnx-node. Each walk runs twice: on the backend as it is (one pass per
// extension, the returned cache cut at the stable tokens) and with `supportsCacheLengths` hidden
// (the two passes a backend without `cacheLengths` gets). Scores of all three agree (checked).
//
//   pnpm --filter @reward-lens/integration-tests bench [--threads 2] [--rounds 3] [--small]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createOnnxNodeBackend } from '@reward-lens/backend-onnx-node';
import { createTinyBackendAsync } from '@reward-lens/backend-tiny';
import { describeMachine, median, secondsAsync, useBundledTinyWorker } from '@reward-lens/bench-harness';
import { ProcessRM, qwen25MathPrmRecipe } from '@reward-lens/core';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { type BackendV1, createRandomDecoder } from '@reward-lens/spec';
import { qwenTokenizer } from '../src/real-tokenizers.js';
import { qwen05bConfig } from '@reward-lens/bench-harness';

const { values } = parseArgs({
  options: { threads: { type: 'string', default: '2' }, rounds: { type: 'string', default: '3' }, small: { type: 'boolean', default: false } },
});
const threads = Number(values.threads);
const rounds = Number(values.rounds);

const config = qwen05bConfig(values.small);

const problem =
  'Janet has 16 ducks that lay eggs every day. She eats 3 for breakfast, bakes muffins with 4 and sells the rest at $2 an egg. How much does she make a day?';
const steps = [
  'Janet starts with 16 eggs each day.',
  'She eats 3 of them, which leaves 16 - 3 = 13 eggs.',
  'She bakes muffins with 4, which leaves 13 - 4 = 9 eggs.',
  'She sells each of the 9 eggs for $2.',
  'So she makes 9 * 2 = 18 dollars from the eggs.',
  'Nothing else is sold, so the eggs are all her income.',
  'Checking: 3 + 4 + 9 = 16, every egg is counted once.',
  'The answer is $18 a day.',
];

/** The backend with `supportsCacheLengths` off: ScoredPrefix then runs two passes per extension. */
function withoutCacheLengths(backend: BackendV1): BackendV1 {
  return Object.assign(Object.create(backend) as BackendV1, { supportsCacheLengths: false, doForward: backend.doForward.bind(backend) });
}

async function walk(prm: ProcessRM): Promise<Float32Array> {
  let prefix = await prm.prefix(problem);
  for (const step of steps) {
    const next = await prefix.extend(step);
    prefix.release();
    prefix = next;
  }
  const scores = prefix.stepScores;
  prefix.release();
  return scores;
}

async function rescoreAll(prm: ProcessRM): Promise<Float32Array> {
  let last: Float32Array = new Float32Array(0);
  for (let count = 1; count <= steps.length; count++) last = (await prm.stepScores([{ problem, steps: steps.slice(0, count) }])).value.curves[0]!;
  return last;
}

async function firstExtension(prm: ProcessRM): Promise<number> {
  const root = await prm.prefix(problem);
  const time = await secondsAsync(async () => (await root.extend(steps[0]!)).release());
  root.release();
  return time;
}

function maxDifference(left: Float32Array, right: Float32Array): number {
  return left.reduce((most, value, index) => Math.max(most, Math.abs(value - right[index]!)), 0);
}

async function measure(label: string, backend: BackendV1): Promise<void> {
  const tokenizer = qwenTokenizer();
  const prm = ProcessRM.fromBackend(backend, tokenizer, { recipe: qwen25MathPrmRecipe, batchSize: 8 });
  const twoPass = ProcessRM.fromBackend(withoutCacheLengths(backend), tokenizer, { recipe: qwen25MathPrmRecipe, batchSize: 8 });
  const rescoreStepOne = async () => secondsAsync(() => prm.stepScores([{ problem, steps: steps.slice(0, 1) }]));
  const reference = await rescoreAll(prm);
  const difference = Math.max(maxDifference(await walk(prm), reference), maxDifference(await walk(twoPass), reference));
  const times = {
    onePass: [] as number[],
    twoPass: [] as number[],
    rescore: [] as number[],
    first: [] as number[],
    firstTwo: [] as number[],
    stepOne: [] as number[],
  };
  for (let round = 0; round < rounds; round++) {
    times.onePass.push(await secondsAsync(() => walk(prm)));
    times.twoPass.push(await secondsAsync(() => walk(twoPass)));
    times.rescore.push(await secondsAsync(() => rescoreAll(prm)));
    times.first.push(await firstExtension(prm));
    times.firstTwo.push(await firstExtension(twoPass));
    times.stepOne.push(await rescoreStepOne());
  }
  const [onePass, two, rescore, first, firstTwo, stepOne] = [times.onePass, times.twoPass, times.rescore, times.first, times.firstTwo, times.stepOne].map(
    median,
  ) as [number, number, number, number, number, number];
  const tokens = prm.tokenize({ problem, steps }).inputIds.length;
  const range = `step scores ${Math.min(...reference).toFixed(3)}..${Math.max(...reference).toFixed(3)}`;
  console.log(`\n${label} (${tokens} tokens for all 8 steps; ${range}; max |Δ score| walk vs re-score ${difference.toExponential(1)})`);
  console.log(`  8-step walk, one pass per step   ${onePass.toFixed(2).padStart(7)} s   re-scoring ÷ walk ${(rescore / onePass).toFixed(2)}×`);
  console.log(`  8-step walk, two passes per step ${two.toFixed(2).padStart(7)} s   re-scoring ÷ walk ${(rescore / two).toFixed(2)}×`);
  console.log(`  re-scoring every prefix          ${rescore.toFixed(2).padStart(7)} s`);
  console.log(
    `  first extension: one pass ${first.toFixed(3)} s, two passes ${firstTwo.toFixed(3)} s, re-scoring step 1 ${stepOne.toFixed(3)} s (one pass ÷ re-score ${(first / stepOne).toFixed(2)}×)`,
  );
}

console.log(describeMachine(`prefix walk, ${threads} thread(s), medians of ${rounds} alternated rounds`));
const parameters =
  (config.vocabSize * config.hiddenSize + config.numLayers * (4 * config.hiddenSize ** 2 + 3 * config.hiddenSize * config.intermediateSize)) / 1e6;
console.log(`model: hidden ${config.hiddenSize}, ${config.numLayers} layers, ~${parameters.toFixed(0)}M parameters, random weights (seed 7)`);
const model = createRandomDecoder({ seed: 7, config });

process.env.REWARD_LENS_TINY_WORKER = await useBundledTinyWorker();
const tiny = await createTinyBackendAsync(model, { threads });
await measure(`backend-tiny (${threads} threads)`, tiny);
await tiny.dispose();

const folder = await mkdtemp(join(tmpdir(), 'reward-lens-prefix-walk-'));
try {
  const file = join(folder, 'model.onnx');
  await writeFile(file, exportDecoderToOnnx(model, { withPast: true }));
  const onnx = await createOnnxNodeBackend(file, { config, decoder: model, intraOpThreads: threads });
  await measure(`onnx-node (${threads} intra-op threads)`, onnx);
  await onnx.dispose();
} finally {
  await rm(folder, { recursive: true, force: true });
}
