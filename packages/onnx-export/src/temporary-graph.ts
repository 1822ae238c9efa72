import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onnxGraphFileName, onnxReadPositionsFileName } from '@reward-lens/loaders';
import type { DecoderModel } from '@reward-lens/spec';
import type { OnnxExportOptions } from './export-decoder-to-onnx.js';
import { writeOnnxModelFolder } from './write-onnx-model-folder.js';

/** A graph written for a session to load, and how to remove it once loaded. */
export interface TemporaryOnnxGraph {
  /** The graph to load (the read-positions graph when `readPositions`, else `model.onnx` or its dtype's name), its weights in external data beside it. */
  graph: string;
  remove(): Promise<void>;
}

/** A new temporary folder for a graph, and how to remove it. */
export async function temporaryGraphFolder(): Promise<{ folder: string; remove(): Promise<void> }> {
  const folder = await mkdtemp(join(tmpdir(), 'reward-lens-onnx-'));
  return { folder, remove: () => rm(folder, { recursive: true, force: true }) };
}

/**
 * Writes `model` as ONNX into `folder`, every weight in external data (so any size fits, where one
 * protobuf message stops at 2 GiB), streamed tensor by tensor; returns the path of the graph to load.
 */
export async function writeGraphForSession(folder: string, model: DecoderModel, options: OnnxExportOptions): Promise<string> {
  const { readPositions, ...graphOptions } = options;
  await writeOnnxModelFolder(folder, {
    model,
    onnx: graphOptions,
    layout: 'flat',
    externalDataThresholdBytes: 0,
    readPositionsGraph: readPositions === true,
  });
  const dtype = options.dtype ?? 'fp32';
  return join(folder, readPositions === true ? onnxReadPositionsFileName(dtype) : onnxGraphFileName(dtype));
}

/**
 * Writes `model` as ONNX to a new temporary folder (see `writeGraphForSession`). For a runtime
 * that loads files: load `graph`, then `remove()` the folder (onnxruntime holds the weights by then).
 *
 * @example
 * const files = await writeTemporaryOnnxGraph(model, { withPast: true, readPositions: true, dtype: 'q4' });
 * try { session = await InferenceSession.create(files.graph); } finally { await files.remove(); }
 */
export async function writeTemporaryOnnxGraph(model: DecoderModel, options: OnnxExportOptions): Promise<TemporaryOnnxGraph> {
  const { folder, remove } = await temporaryGraphFolder();
  try {
    return { graph: await writeGraphForSession(folder, model, options), remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
