import { Worker } from 'node:worker_threads';

/** The highest resident memory seen so far, sampled on a thread of its own. */
export interface RssSampler {
  /** The highest resident set size sampled, in bytes. */
  readonly peak: () => number;
  stop(): Promise<void>;
}

/**
 * Samples the process's resident memory every `intervalMs` on a worker thread (so that it
 * samples through the main thread's synchronous work) and keeps the highest. The process's own
 * maxRSS would include module loading's peak; this starts when asked.
 */
export function sampleRss(intervalMs = 1): RssSampler {
  const highest = new Float64Array(new SharedArrayBuffer(8));
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const highest = new Float64Array(workerData.buffer);
     setInterval(() => { highest[0] = Math.max(highest[0], process.memoryUsage.rss()); }, workerData.intervalMs);`,
    { eval: true, workerData: { buffer: highest.buffer, intervalMs } },
  );
  return { peak: () => highest[0]!, stop: async () => void (await worker.terminate()) };
}
