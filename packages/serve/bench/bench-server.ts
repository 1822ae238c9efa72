/**
 * One `createRewardServer` in its own process for the load test (loopback, a free port), batching
 * as the arguments say: `<maxBatchSize> <maxWaitMs> [tiny|default] [threads]`. `tiny` (the
 * default) is the seeded tiny PRM (`reward-lens serve --seed 0`, so the batching figures stay
 * comparable with earlier runs); `default` is the default PRM, what `reward-lens serve` serves,
 * on `threads` threads. Prints `{"url": ...}` on stdout when listening; SIGTERM closes it gracefully.
 */
import { ProcessRM } from '@reward-lens/core';
import '@reward-lens/backend-tiny/register';
import { loadDefaultPrm } from '@reward-lens/model-default';
import { createRewardServer } from '../src/index.js';

const [maxBatchSize, maxWaitMs] = process.argv.slice(2, 4).map(Number) as [number, number];
const which = process.argv[4] ?? 'tiny';
const threads = process.argv[5] === undefined ? {} : { threads: Number(process.argv[5]) };
const prm =
  which === 'default'
    ? await loadDefaultPrm({ batchSize: maxBatchSize, ...threads })
    : await ProcessRM.fromTiny({ seed: 0, batchSize: maxBatchSize, ...threads });
const server = createRewardServer(prm, { host: '127.0.0.1', port: 0, maxBatchSize, maxWaitMs, log: (line) => process.stderr.write(`${line}\n`) });
const { url } = await server.listen();
process.stdout.write(`${JSON.stringify({ url })}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => prm.dispose());
});
