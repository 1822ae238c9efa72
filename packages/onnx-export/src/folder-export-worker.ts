/**
 * The thread `exportFolderInWorker` starts: it reads a weights folder (quantizing as it reads),
 * writes it as an ONNX graph with external data, posts back the graph's path with the config and
 * the heads' tensors, and ends, so that every weight it read is freed with its heap.
 */
import { availableParallelism } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { loadDecoderFolder } from '@reward-lens/loaders/node';
import { resolveHeadTensors } from '@reward-lens/spec/internal';
import { describeThreadError, type FolderExportReply, type FolderExportRequest } from './folder-export-protocol.js';
import { writeGraphForSession } from './temporary-graph.js';
import { createThreadedQuantizer } from './threaded-quantizer.js';

async function run(request: FolderExportRequest, post: (reply: FolderExportReply, transfer?: ArrayBuffer[]) => void): Promise<void> {
  const dtype = request.options.dtype ?? 'fp32';
  // Quantizing takes most of the load (about 7 ns a weight at q4): every core quantizes while this thread reads.
  const quantizer = dtype === 'q8' || dtype === 'q4' ? createThreadedQuantizer(availableParallelism()) : undefined;
  const loading = loadDecoderFolder(request.folder, {
    heads: [...request.heads],
    ...(dtype !== 'fp32' ? { dtype } : {}),
    ...(request.slidingWindow !== undefined ? { slidingWindow: request.slidingWindow } : {}),
    ...(quantizer ? { quantizer, allocateBytes: quantizer.allocateBytes } : {}),
    onProgress: (progress) => post({ type: 'progress', progress: { file: progress.file, loaded: progress.loaded, total: progress.total } }),
  });
  const { model, notes } = await loading.finally(() => quantizer?.close());
  // The heads' own tensors (a final norm, a small classifier), copied out of whatever buffer holds them.
  const headTensors = new Map<string, Float32Array>();
  for (const head of model.config.heads) {
    resolveHeadTensors(model.config, head, (name) => {
      const tensor = model.tensors.get(name);
      if (tensor) headTensors.set(name, tensor.slice());
      return tensor;
    });
  }
  const graph = await writeGraphForSession(request.into, model, request.options);
  post(
    { type: 'done', graph, config: model.config, headTensors, notes },
    [...headTensors.values()].map((tensor) => tensor.buffer as ArrayBuffer),
  );
}

const port = parentPort;
if (port) {
  const post = (reply: FolderExportReply, transfer?: ArrayBuffer[]) => port.postMessage(reply, transfer);
  run(workerData as FolderExportRequest, post).catch((error: unknown) => post({ type: 'error', error: describeThreadError(error) }));
}
