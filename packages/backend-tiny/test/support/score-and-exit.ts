/**
 * A child process for the exit test: scores on two worker threads, disposes unless told not to
 * (`--keep`), and prints `scored` when done. Nothing else keeps it running.
 */
import { createRandomDecoder } from '@reward-lens/spec';
import { createTinyBackend } from '../../src/create-tiny-backend.js';

const backend = createTinyBackend(createRandomDecoder({ seed: 1 }), { threads: 2, sliceTokens: 1 });
const length = 200;
await backend.doForward({
  batchSize: 2,
  sequenceLength: length,
  inputIds: Int32Array.from({ length: 2 * length }, (_, index) => index % 500),
  attentionMask: new Uint8Array(2 * length).fill(1),
  reads: [{ kind: 'head', head: 'value', positions: [[length - 1], [length - 1]] }],
});
if (!process.argv.includes('--keep')) await backend.dispose();
process.stdout.write('scored\n');
