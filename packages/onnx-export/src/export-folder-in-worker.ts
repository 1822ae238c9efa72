import { Worker } from 'node:worker_threads';
import { InvalidInputError, type DecoderConfig, type DecoderFolderSource } from '@reward-lens/spec';
import type { OnnxExportOptions } from './export-decoder-to-onnx.js';
import { threadErrorToError, type FolderExportReply, type FolderExportRequest } from './folder-export-protocol.js';
import { temporaryGraphFolder, type TemporaryOnnxGraph } from './temporary-graph.js';
import { workerScript } from './worker-script.js';

/** A weights folder exported to a temporary graph by a thread, with what a backend needs of the weights beside the graph. */
export interface FolderGraph extends TemporaryOnnxGraph {
  /** The model's configuration, as the loader read it. */
  config: DecoderConfig;
  /** The heads' tensors (final norm, classifier layers), float32: a JavaScript readout of inner layers needs them. */
  headTensors: ReadonlyMap<string, Float32Array>;
  /** The loader's notes (a sliding window limited, tensors skipped). */
  notes: string[];
}

/**
 * Reads a weights folder (quantizing to `options.dtype` as it reads) and writes it as an ONNX
 * graph with external data to a temporary folder, all in a worker thread that then ends: every
 * weight it read is freed with the thread, so a runtime that next loads the graph from disk never
 * shares the process with a second copy of the weights. `remove()` the folder once loaded. The
 * source's `onProgress` is called as the thread reads; its `signal` stops the thread and removes the folder.
 *
 * @example
 * const files = await exportFolderInWorker({ kind: 'decoder-folder', folder, heads, description: folder }, { withPast: true, dtype: 'q4' });
 * try { session = await InferenceSession.create(files.graph); } finally { await files.remove(); }
 */
export async function exportFolderInWorker(source: DecoderFolderSource, options: OnnxExportOptions): Promise<FolderGraph> {
  source.signal?.throwIfAborted();
  const dtype = options.dtype ?? 'fp32';
  if (dtype === 'fp16') throw new InvalidInputError("dtype 'fp16' graphs are written whole, in memory, not by a thread to files");
  const { folder: into, remove } = await temporaryGraphFolder();
  const request: FolderExportRequest = {
    folder: source.folder,
    heads: source.heads,
    ...(source.slidingWindow !== undefined ? { slidingWindow: source.slidingWindow } : {}),
    into,
    options,
  };
  const { url, execArgv } = workerScript(import.meta.url, 'folder-export-worker');
  const worker = new Worker(url, { workerData: request, ...(execArgv ? { execArgv } : {}) });
  const outcome = await new Promise<Extract<FolderExportReply, { type: 'done' }>>((resolve, reject) => {
    const abort = () => reject(source.signal?.reason);
    source.signal?.addEventListener('abort', abort, { once: true });
    const settle = () => source.signal?.removeEventListener('abort', abort);
    worker.on('message', (reply: FolderExportReply) => {
      if (reply.type === 'progress') source.onProgress?.(reply.progress);
      else {
        settle();
        if (reply.type === 'done') resolve(reply);
        else reject(threadErrorToError(reply.error));
      }
    });
    worker.on('error', (error) => {
      settle();
      reject(new Error(`the ONNX export thread failed reading ${source.folder}: ${error.message}`, { cause: error }));
    });
    worker.on('exit', (code) => {
      settle();
      reject(new Error(`the ONNX export thread reading ${source.folder} exited with code ${code} before it finished`));
    });
  }).then(
    (done) => ({ done }),
    (error: unknown) => ({ error }),
  );
  // Ends the thread (done, failed or stopped), freeing its heap and every weight it read; then, on failure, its folder.
  await worker.terminate();
  if ('error' in outcome) {
    await remove();
    throw outcome.error;
  }
  const { done } = outcome;
  return { graph: done.graph, remove, config: done.config, headTensors: done.headTensors, notes: done.notes };
}
