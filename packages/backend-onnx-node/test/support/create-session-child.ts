/**
 * Run in a child process by `model-loading.test.ts`: onnxruntime logs from native code straight
 * to the process's stdout/stderr, which only a parent process can capture. Creates the backend
 * with verbose session logging and runs a forward with and without a past.
 */
import { createOnnxNodeBackend } from '../../src/index.js';

const modelPath = process.argv[2]!;
const backend = await createOnnxNodeBackend(modelPath, { intraOpThreads: 1, sessionOptions: { logSeverityLevel: 0, logVerbosityLevel: 0 } });
const ids = Int32Array.of(1, 2, 3, 4, 0, 0, 5, 6, 7, 8, 9, 10);
const mask = Uint8Array.of(1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1);
const positions = [
  [0, 1, 2, 3],
  [0, 1, 2, 3, 4, 5],
];
const first = await backend.doForward({
  batchSize: 2,
  sequenceLength: 6,
  inputIds: ids,
  attentionMask: mask,
  reads: [{ kind: 'head', head: 'value', positions }],
  returnCache: true,
});
await backend.doForward({
  batchSize: 2,
  sequenceLength: 1,
  inputIds: Int32Array.of(11, 12),
  attentionMask: Uint8Array.of(1, 1),
  reads: [{ kind: 'head', head: 'lm', positions: [[0], [0]], columns: [1, 2] }],
  past: first.caches!,
});
await backend.dispose();
console.log('CHILD-DONE');
