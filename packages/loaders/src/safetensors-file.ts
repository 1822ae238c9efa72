import { openNodeModelFile } from './node-model-file.js';
import { readSafetensorsFrom, type SafetensorsFile } from './safetensors-reader.js';

/* Node only: a safetensors file on disk, read with positioned reads (the reading itself is safetensors-reader.ts, shared with browsers). */

export type { SafetensorsFile } from './safetensors-reader.js';

/**
 * Opens a `.safetensors` file and reads only its header: 8 bytes, then the JSON. Tensors are read
 * later, each from its own byte range, so peak memory is the float32 size of the tensors asked
 * for plus one chunk, whatever the file's size. The header is checked against the file's size
 * before any tensor is allocated.
 *
 * @example
 * const file = await openSafetensorsFile('model.safetensors');
 * const norm = await file.read('model.norm.weight');
 * await file.close();
 */
export async function openSafetensorsFile(path: string, options: { chunkBytes?: number } = {}): Promise<SafetensorsFile> {
  return readSafetensorsFrom(await openNodeModelFile(path), options);
}
