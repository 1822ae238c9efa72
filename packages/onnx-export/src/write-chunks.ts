import { open } from 'node:fs/promises';
import type { DeferredBytes } from './graph/deferred-bytes.js';

/** The most bytes one write hands the file system: Node refuses a write of 2 GiB or more (a 7B model's embedding table is 2.2 GB). */
export const MAX_WRITE_BYTES = 1 << 30;

/**
 * Writes each chunk at its offset of the file at `path` (created or truncated), at most
 * `maxWriteBytes` a write. A chunk's bytes may be deferred (`DeferredBytes`): each piece is
 * computed, written and let go before the next, so only one piece is held at a time.
 */
export async function writeChunks(
  path: string,
  chunks: readonly { offset: number; bytes: Uint8Array | DeferredBytes }[],
  maxWriteBytes = MAX_WRITE_BYTES,
): Promise<void> {
  const handle = await open(path, 'w');
  try {
    for (const chunk of chunks) {
      let offset = chunk.offset;
      for (const piece of chunk.bytes instanceof Uint8Array ? [chunk.bytes] : chunk.bytes.pieces()) {
        // A write may also write less than it was given: it goes on from where it stopped.
        for (let written = 0; written < piece.byteLength; ) {
          const length = Math.min(maxWriteBytes, piece.byteLength - written);
          written += (await handle.write(piece, written, length, offset + written)).bytesWritten;
        }
        offset += piece.byteLength;
      }
      if (!(chunk.bytes instanceof Uint8Array) && offset - chunk.offset !== chunk.bytes.byteLength)
        throw new Error(`a deferred chunk gave ${offset - chunk.offset} bytes, not the ${chunk.bytes.byteLength} it declared`);
    }
  } finally {
    await handle.close();
  }
}
