/**
 * One `createRewardServer` in its own process for the load test (loopback, a free port): the
 * seeded tiny PRM (`reward-lens serve --seed 0`; not the default PRM, so the figures stay
 * comparable with earlier runs) on backend-tiny, batching as the arguments say. Prints `{"url": ...}` on stdout when listening; SIGTERM closes it gracefully.
 */
import { ProcessRM } from '@reward-lens/core';
import '@reward-lens/backend-tiny/register';
import { createRewardServer } from '../src/index.js';

const [maxBatchSize, maxWaitMs] = process.argv.slice(2).map(Number) as [number, number];
const prm = await ProcessRM.fromTiny({ seed: 0, batchSize: maxBatchSize });
const server = createRewardServer(prm, { host: '127.0.0.1', port: 0, maxBatchSize, maxWaitMs, log: (line) => process.stderr.write(`${line}\n`) });
const { url } = await server.listen();
process.stdout.write(`${JSON.stringify({ url })}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => prm.dispose());
});
