/** The worker thread of backend-tiny's pool (`threads/worker-pool.ts`): Node's worker_threads or a Web Worker. */
import { workerPort } from '#tiny-platform';
import { serveWorker } from './threads/worker-host.js';

serveWorker(workerPort());
