import type { ThreadPlatform, WorkerLike, WorkerPort } from './threads/thread-platform.js';

class WebWorker implements WorkerLike {
  readonly #worker: Worker;
  #terminated = false;
  #failed = false;
  readonly #failureListeners: ((reason: string) => void)[] = [];

  constructor() {
    // The literal form bundlers (Vite, webpack 5, Parcel) recognise and bundle the worker from;
    // the package's build writes it as `./tiny-worker.js` (see tsup.config.ts).
    this.#worker = new Worker(new URL('./tiny-worker.ts', import.meta.url), { type: 'module', name: 'reward-lens backend-tiny' });
    this.#worker.addEventListener('error', (event) => this.#fail(event.message || 'the worker failed to load or threw'));
    this.#worker.addEventListener('messageerror', () => this.#fail('a message could not be read'));
  }

  #fail(reason: string): void {
    if (this.#terminated || this.#failed) return;
    this.#failed = true;
    for (const listener of this.#failureListeners) listener(reason);
  }

  postMessage(message: unknown, transfer?: Transferable[]): void {
    this.#worker.postMessage(message, transfer ?? []);
  }

  onMessage(listener: (message: unknown) => void): void {
    this.#worker.addEventListener('message', (event) => listener(event.data));
  }

  onFailure(listener: (reason: string) => void): void {
    this.#failureListeners.push(listener);
  }

  terminate(): void {
    this.#terminated = true;
    this.#worker.terminate();
  }

  kill(): void {
    this.#worker.terminate();
    this.#fail('the thread was killed');
  }

  ref(): void {}

  unref(): void {}
}

function unavailableReason(): string | null {
  if (typeof Worker !== 'function') return 'no Web Workers here';
  if (typeof SharedArrayBuffer !== 'function' || globalThis.crossOriginIsolated !== true) {
    return 'the page is not cross-origin isolated, so workers cannot share memory (serve it with "Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp")';
  }
  return null;
}

/** Browsers: Web Workers where the page is cross-origin isolated (`SharedArrayBuffer`), one thread elsewhere. */
export const threadPlatform: ThreadPlatform = {
  name: 'browser',
  unavailableReason,
  defaultThreads: () => (unavailableReason() === null ? Math.max(1, globalThis.navigator?.hardwareConcurrency ?? 1) : 1),
  spawn: () => new WebWorker(),
};

/** The worker side: the worker's global scope. */
export function workerPort(): WorkerPort {
  const scope = globalThis as unknown as {
    addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
    postMessage(message: unknown, transfer: Transferable[]): void;
  };
  return {
    onMessage: (listener) => scope.addEventListener('message', (event) => listener(event.data)),
    postMessage: (message, transfer) => scope.postMessage(message, transfer ?? []),
  };
}
