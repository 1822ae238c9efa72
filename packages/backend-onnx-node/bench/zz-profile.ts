import { createRandomDecoder } from '@reward-lens/core';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { createOnnxNodeBackend } from '../src/index.js';
import { arithmeticPair, benchConfig, benchProcessRM, median } from './bench-support.js';

const model = createRandomDecoder({ seed: 1, config: benchConfig });
const graph = exportDecoderToOnnx(model, { withPast: true });
const onnx = await createOnnxNodeBackend(graph, { config: model.config, intraOpThreads: 1 });
const session = await InferenceSession.create(graph, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' });
const pair = arithmeticPair(5, 16);
const tokenized = benchProcessRM(onnx).tokenize(pair);
const ids = tokenized.inputIds;
const cut = tokenized.readPositions[14]! + 1;
const n = ids.length - cut;
const { numLayers: L, numKvHeads: H, headDim: D } = benchConfig as any;
console.log(session.outputNames);
const mk = (from: number, to: number, past: number, pasts?: Record<string, Tensor>) => {
  const len = to - from;
  const feeds: Record<string, Tensor> = {
    input_ids: new Tensor('int64', BigInt64Array.from(Array.from(ids.slice(from, to)), BigInt), [1, len]),
    attention_mask: new Tensor('int64', new BigInt64Array(past + len).fill(1n), [1, past + len]),
    position_ids: new Tensor('int64', BigInt64Array.from({ length: len }, (_, i) => BigInt(past + i)), [1, len]),
  };
  for (let l = 0; l < L; l++) for (const p of ['key', 'value']) feeds[`past_key_values.${l}.${p}`] = pasts?.[`present.${l}.${p}`] ?? new Tensor('float32', new Float32Array(0), [1, H, 0, D]);
  return feeds;
};
const presentNames = Array.from({ length: L }, (_, l) => [`present.${l}.key`, `present.${l}.value`]).flat();
const prefix = await session.run(mk(0, cut, 0), ['scores.value', ...presentNames]);
const time = async (label: string, f: () => Promise<unknown>) => {
  for (let i = 0; i < 3; i++) await f();
  const t: number[] = [];
  for (let i = 0; i < 25; i++) { const s = performance.now(); await f(); t.push(performance.now() - s); }
  console.log(label.padEnd(50), median(t).toFixed(2), 'ms');
};
const stepFeeds = mk(cut, ids.length, cut, prefix as any);
await time('bare run step, scores only', () => session.run(stepFeeds, ['scores.value']));
await time('bare run step, scores + presents', () => session.run(stepFeeds, ['scores.value', ...presentNames]));
const copies = Object.fromEntries(presentNames.map((name) => [name, new Tensor('float32', (prefix[name]!.data as Float32Array).slice(), prefix[name]!.dims)]));
await time('bare run step, fresh copied pasts', () => session.run(mk(cut, ids.length, cut, copies as any), ['scores.value', ...presentNames]));
await time('bare run step 1 token, scores + presents', () => session.run(mk(cut, cut + 1, cut, prefix as any), ['scores.value', ...presentNames]));
await time('bare run whole, scores only', () => session.run(mk(0, ids.length, 0), ['scores.value']));
const pc = await onnx.doForward({ batchSize: 1, sequenceLength: cut, inputIds: ids.slice(0, cut), attentionMask: new Uint8Array(cut).fill(1), reads: [{ kind: 'head', head: 'value', positions: [[cut - 1]] }], returnCache: true });
await time('backend step with cache', async () => {
  const r = await onnx.doForward({ batchSize: 1, sequenceLength: n, inputIds: ids.slice(cut), attentionMask: new Uint8Array(n).fill(1), reads: [{ kind: 'head', head: 'value', positions: [[n - 1]] }], past: [pc.caches![0]!], returnCache: true });
  r.caches![0]!.release();
});
await time('slice 8 presents', async () => presentNames.map((name) => (prefix[name]!.data as Float32Array).slice()));
const { planBatch } = await import('../../onnx-backend-common/src/batch-plan.js');
const { pastTensorData, extractRowKeyValues } = await import('../../onnx-backend-common/src/kv-tensors.js');
const rkv = (pc.caches![0]! as any).data();
const req = { batchSize: 1, sequenceLength: n, inputIds: ids.slice(cut), attentionMask: new Uint8Array(n).fill(1), reads: [] } as any;
const plan = planBatch(req, [n], [cut], undefined);
const shape = { layers: L, kvHeads: H, headDim: D };
await time('pastTensorData x8', async () => { for (let l = 0; l < L; l++) { pastTensorData([rkv], plan, shape, l, 'keys'); pastTensorData([rkv], plan, shape, l, 'values'); } });
const out = await session.run(stepFeeds, ['scores.value', ...presentNames]);
const presents = { keys: [] as Float32Array[], values: [] as Float32Array[] };
for (let l = 0; l < L; l++) { presents.keys.push(out[`present.${l}.key`]!.data as Float32Array); presents.values.push(out[`present.${l}.value`]!.data as Float32Array); }
await time('extract', async () => extractRowKeyValues(presents, plan, shape, 0));
await time('planBatch', async () => planBatch(req, [n], [cut], undefined));
const { createOrtBackend } = await import('@reward-lens/onnx-backend-common');
let runMs: number[] = [];
const wrapped = {
  InferenceSession: { create: async (b: any, o: any) => { const s: any = await InferenceSession.create(b, o); const run = s.run.bind(s); return { inputMetadata: s.inputMetadata, outputMetadata: s.outputMetadata, release: () => s.release(), run: async (f: any, x: any) => { const t = performance.now(); const r = await run(f, x); runMs.push(performance.now() - t); return r; } }; } },
  Tensor,
} as any;
const b2 = await createOrtBackend(graph, { name: 'onnx-node', ort: wrapped, config: model.config, sessionOptions: { executionMode: 'sequential', graphOptimizationLevel: 'all', interOpNumThreads: 1, intraOpNumThreads: 1 } as any });
const pc2 = await b2.doForward({ batchSize: 1, sequenceLength: cut, inputIds: ids.slice(0, cut), attentionMask: new Uint8Array(cut).fill(1), reads: [{ kind: 'head', head: 'value', positions: [[cut - 1]] }], returnCache: true });
runMs = [];
await time('wrapped backend step with cache', async () => {
  const r = await b2.doForward({ batchSize: 1, sequenceLength: n, inputIds: ids.slice(cut), attentionMask: new Uint8Array(n).fill(1), reads: [{ kind: 'head', head: 'value', positions: [[n - 1]] }], past: [pc2.caches![0]!], returnCache: true });
  r.caches![0]!.release();
});
console.log('  of which session.run median', median(runMs).toFixed(2));
