import { open } from 'node:fs/promises';
import { join } from 'node:path';

/** Parameters in a folder's model.safetensors (from its header: the sum of every tensor's shape product). */
export async function modelParameters(folder: string): Promise<number> {
  const file = await open(join(folder, 'model.safetensors'), 'r');
  try {
    const length = Buffer.alloc(8);
    await file.read(length, 0, 8, 0);
    const header = Buffer.alloc(Number(length.readBigUInt64LE(0)));
    await file.read(header, 0, header.length, 8);
    const tensors = JSON.parse(header.toString('utf8')) as Record<string, { shape?: number[] }>;
    return Object.entries(tensors)
      .filter(([name]) => name !== '__metadata__')
      .reduce((sum, [, tensor]) => sum + (tensor.shape ?? []).reduce((product, dimension) => product * dimension, 1), 0);
  } finally {
    await file.close();
  }
}
