import { join } from 'node:path';
import type { WeightDtypeV1 } from '@reward-lens/spec';
import { requireRegularFile } from './node-model-file.js';
import { modelFilesFromFolder } from './node-model-files.js';
import { chooseOnnxGraph } from './onnx-graph-choice.js';

/* Node only: it looks into a model folder on disk (the choice itself is onnx-graph-choice.ts, shared with browsers). */

/**
 * The ONNX graph reward-lens runs from a model folder, or `undefined` when it has none (or the
 * folder cannot be read), for the weights `dtype` (`onnx/model_q4.onnx` for q4): see `chooseOnnxGraph`. A graph that is not a regular file (a
 * directory, a FIFO, a link loop) is a `ModelLoadError` naming it: onnxruntime would block
 * forever on a FIFO.
 *
 * @example
 * await findOnnxGraph('models/prm-onnx'); // 'models/prm-onnx/onnx/model_read_positions.onnx'
 */
export async function findOnnxGraph(folder: string, dtype?: WeightDtypeV1): Promise<string | undefined> {
  const files = await modelFilesFromFolder(folder).catch(() => undefined);
  const name = files === undefined ? undefined : await chooseOnnxGraph(files, dtype);
  return name === undefined ? undefined : requireRegularFile(join(folder, name));
}
