import { Worker } from 'node:worker_threads';
import { quantizeFailure, type PieceQuantizer } from '@reward-lens/loaders';
import type { QuantizedFormatV1, QuantizedTensorV1 } from '@reward-lens/spec';
import type { QuantizePiece } from './quantize-worker.js';
import { workerScript } from './worker-script.js';

/** A `PieceQuantizer` whose pieces are quantized by threads, and the shared memory its tensors live in. */
export interface ThreadedQuantizer extends PieceQuantizer {
  /** For the loader's `allocateBytes`: each quantized tensor in shared memory, where the threads write it. */
  allocateBytes(byteLength: number): Uint8Array;
  /** Ends the threads. */
  close(): Promise<void>;
}

/** Pieces handed over and not yet done, at most, before the reader waits: a few 16 MiB pieces in flight. */
const MAX_IN_FLIGHT = 4;
/** How long the reader waits for a thread to finish a piece (a few tenths of a second each) before it gives up. */
const STALL_MS = 120_000;

/**
 * Quantizes the loader's pieces of rows on `threads` worker threads, so that reading and widening
 * (the loader's thread) and quantizing (about 7 ns a weight for q4 in JavaScript) run on every
 * core at once. Each piece is copied into shared memory (the loader reuses its buffer) and
 * handed to the next thread; the quantized bytes are the ones `quantizeInto` writes, whichever
 * thread writes them. The reader blocks (`Atomics.wait`, so it must itself run in a worker
 * thread) while `MAX_IN_FLIGHT` pieces are pending. A piece that cannot be quantized rejects
 * `settle()` with a ModelLoadError naming its tensor and file.
 */
export function createThreadedQuantizer(threads: number): ThreadedQuantizer {
  const { url, execArgv } = workerScript(import.meta.url, 'quantize-worker');
  // Pieces in flight, shared: the threads decrement it as they finish, so a reader blocked on it wakes without its event loop.
  const inFlight = new Int32Array(new SharedArrayBuffer(4));
  // Per slot, 1 while a thread quantizes the piece in it: the threads free their slot as they finish.
  const slotStates = new Int32Array(new SharedArrayBuffer(4 * MAX_IN_FLIGHT));
  const slots = Array.from({ length: MAX_IN_FLIGHT }, () => new SharedArrayBuffer(0));
  const workers = Array.from(
    { length: Math.max(1, threads) },
    () => new Worker(url, { workerData: { inFlight: inFlight.buffer, slotStates: slotStates.buffer }, ...(execArgv ? { execArgv } : {}) }),
  );
  const pending = new Map<number, { tensor: string; file: string; format: QuantizedFormatV1 }>();
  let failure: Error | undefined;
  let waiters: (() => void)[] = [];
  let next = 0;
  const done = (id: number, error?: string) => {
    const where = pending.get(id);
    pending.delete(id);
    if (error !== undefined && failure === undefined && where) {
      failure = quantizeFailure(where, where.format, new Error(error));
    }
    if (pending.size === 0) for (const wake of waiters.splice(0)) wake();
  };
  for (const worker of workers) {
    worker.on('message', (reply: { id: number; error?: string }) => done(reply.id, reply.error));
    worker.on('error', (error) => {
      failure ??= new Error(`a quantizing thread failed: ${error.message}`, { cause: error });
      // Its pieces will not be done: release the reader and whoever waits to settle.
      Atomics.store(inFlight, 0, 0);
      Atomics.notify(inFlight, 0);
      for (const id of [...pending.keys()]) done(id);
    });
  }
  return {
    allocateBytes: (byteLength) => new Uint8Array(new SharedArrayBuffer(byteLength)),
    quantize(tensor: QuantizedTensorV1, values: Float32Array, firstRow: number, where: { tensor: string; file: string }): void {
      if (failure) return;
      if (!(tensor.bytes.buffer instanceof SharedArrayBuffer)) throw new Error('the threaded quantizer writes tensors allocated by its allocateBytes');
      for (let count = Atomics.load(inFlight, 0); count >= MAX_IN_FLIGHT; count = Atomics.load(inFlight, 0)) {
        if (Atomics.wait(inFlight, 0, count, STALL_MS) === 'timed-out') throw new Error(`the quantizing threads finished no piece in ${STALL_MS / 1000} s`);
      }
      // The loader reuses its buffer once this returns: the piece is copied into a free slot of
      // shared memory the thread can read (one slot per piece in flight, reused, grown when a piece is larger).
      const slot = slotStates.findIndex((_, index) => Atomics.load(slotStates, index) === 0);
      if (slot < 0) throw new Error('no free slot although fewer pieces than slots are in flight');
      if (slots[slot]!.byteLength < values.byteLength) slots[slot] = new SharedArrayBuffer(values.byteLength);
      new Float32Array(slots[slot]!, 0, values.length).set(values);
      Atomics.store(slotStates, slot, 1);
      const id = next++;
      pending.set(id, { ...where, format: tensor.format });
      Atomics.add(inFlight, 0, 1);
      const piece: QuantizePiece = {
        id,
        slot,
        values: slots[slot]!,
        valuesOffset: 0,
        count: values.length,
        target: tensor.bytes.buffer,
        targetOffset: tensor.bytes.byteOffset,
        targetLength: tensor.bytes.byteLength,
        format: tensor.format,
        rows: tensor.rows,
        columns: tensor.columns,
        firstRow,
      };
      workers[id % workers.length]!.postMessage(piece);
    },
    async settle(): Promise<void> {
      if (pending.size > 0) await new Promise<void>((resolve) => waiters.push(resolve));
      if (failure) throw failure;
    },
    async close(): Promise<void> {
      waiters = [];
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
