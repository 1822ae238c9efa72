import { open } from 'node:fs/promises';

/** The most bytes one write hands the file system: Node refuses a write of 2 GiB or more (a 7B model's embedding table is 2.2 GB). */
export const MAX_WRITE_BYTES = 1 << 30;

/** Writes each chunk at its offset of the file at `path` (created or truncated), at most `maxWriteBytes` a write. */
export async function writeChunks(path: string, chunks: readonly { offset: number; bytes: Uint8Array }[], maxWriteBytes = MAX_WRITE_BYTES): Promise<void> {
  const handle = await open(path, 'w');
  try {
    for (const chunk of chunks) {
      // A write may also write less than it was given: it goes on from where it stopped.
      for (let written = 0; written < chunk.bytes.byteLength; ) {
        const length = Math.min(maxWriteBytes, chunk.bytes.byteLength - written);
        written += (await handle.write(chunk.bytes, written, length, chunk.offset + written)).bytesWritten;
      }
    }
  } finally {
    await handle.close();
  }
}
