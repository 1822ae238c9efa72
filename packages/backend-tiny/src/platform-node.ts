import { availableParallelism, cpus } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parentPort, Worker } from 'node:worker_threads';
import type { ThreadPlatform, WorkerLike, WorkerPort } from './threads/thread-platform.js';

/**
 * Where the worker's code is. Built, it is `tiny-worker.js` (or `.cjs`) beside this file. Run
 * from source (TypeScript, in this repository), it is a bundle named by
 * `REWARD_LENS_TINY_WORKER` (the test setup builds one), else `tiny-worker.ts` through tsx.
 */
function workerScript(): { url: URL; execArgv?: string[] } {
  const here = import.meta.url;
  const extension = here.slice(here.lastIndexOf('.'));
  if (extension !== '.ts') return { url: new URL(`./tiny-worker${extension}`, here) };
  const bundled = process.env.REWARD_LENS_TINY_WORKER;
  if (bundled) return { url: pathToFileURL(bundled) };
  const tsx = createRequire(here)
    .resolve('tsx/esm/api')
    .replace(/index\.cjs$/, 'index.mjs');
  const source = new URL('./tiny-worker.ts', here).href;
  const code = `import { register } from ${JSON.stringify(pathToFileURL(tsx).href)}; register(); await import(${JSON.stringify(source)});`;
  return { url: new URL(`data:text/javascript,${encodeURIComponent(code)}`), execArgv: ['--conditions=@reward-lens/source'] };
}

class NodeWorker implements WorkerLike {
  readonly #worker: Worker;
  #terminated = false;
  #failed = false;
  readonly #failureListeners: ((reason: string) => void)[] = [];

  constructor() {
    const { url, execArgv } = workerScript();
    this.#worker = new Worker(url, execArgv ? { execArgv } : {});
    const fail = (reason: string) => {
      if (this.#terminated || this.#failed) return;
      this.#failed = true;
      for (const listener of this.#failureListeners) listener(reason);
    };
    this.#worker.on('error', (error) => fail(`${error.name}: ${error.message}`));
    this.#worker.on('messageerror', (error) => fail(`a message could not be read: ${error.message}`));
    this.#worker.on('exit', (code) => fail(`the thread exited with code ${code}`));
  }

  postMessage(message: unknown, transfer?: Transferable[]): void {
    this.#worker.postMessage(message, transfer as never);
  }

  onMessage(listener: (message: unknown) => void): void {
    this.#worker.on('message', listener);
  }

  onFailure(listener: (reason: string) => void): void {
    this.#failureListeners.push(listener);
  }

  terminate(): void {
    this.#terminated = true;
    void this.#worker.terminate();
  }

  kill(): void {
    void this.#worker.terminate();
  }

  ref(): void {
    this.#worker.ref();
  }

  unref(): void {
    this.#worker.unref();
  }
}

/** Node: `worker_threads`, every core by default (`os.availableParallelism()`). */
export const threadPlatform: ThreadPlatform = {
  name: 'node',
  unavailableReason: () => (typeof SharedArrayBuffer === 'function' ? null : 'no SharedArrayBuffer in this runtime'),
  defaultThreads: () => (typeof availableParallelism === 'function' ? availableParallelism() : cpus().length),
  spawn: () => new NodeWorker(),
};

/** The worker side: the parent's port. */
export function workerPort(): WorkerPort {
  const port = parentPort;
  if (port === null) throw new Error('tiny-worker runs in a worker thread, not as a script of its own');
  return {
    onMessage: (listener) => port.on('message', listener),
    postMessage: (message, transfer) => port.postMessage(message, transfer as never),
  };
}
