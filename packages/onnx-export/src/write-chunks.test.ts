import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DeferredBytes } from './graph/deferred-bytes.js';
import { MAX_WRITE_BYTES, writeChunks } from './write-chunks.js';

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

describe('writeChunks', () => {
  it('writes no more than 1 GiB at a time (Node refuses a write of 2 GiB: a 7B embedding table is 2.2 GB)', () => {
    expect(MAX_WRITE_BYTES).toBe(2 ** 30);
  });

  it('puts every chunk at its offset, whatever the most bytes one write may take', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'reward-lens-chunks-'));
    folders.push(folder);
    // Chunks of 1 to 40 bytes, some longer than a write may take, written in reverse order.
    for (const most of [1, 3, 7, 16, 64]) {
      const parts = [5, 40, 1, 17, 32, 9].map((length, part) => Uint8Array.from({ length }, (_, index) => (part * 31 + index * 7) % 256));
      let offset = 0;
      const chunks = parts.map((bytes) => {
        const chunk = { offset, bytes };
        offset += bytes.length;
        return chunk;
      });
      const path = join(folder, `data-${most}`);
      await writeChunks(path, [...chunks].reverse(), most);
      expect(Buffer.from(await readFile(path)).equals(Buffer.concat(parts)), `at most ${most} bytes a write`).toBe(true);
    }
  });

  it('computes a deferred chunk piece by piece, each piece at the offset after the last, and refuses one that gives other than it declared', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'reward-lens-chunks-'));
    folders.push(folder);
    const held: Uint8Array[] = [];
    const pieces = [3, 10, 1, 6].map((length, part) => Uint8Array.from({ length }, (_, index) => (part * 53 + index * 11) % 256));
    const deferred: DeferredBytes = {
      byteLength: 20,
      *pieces() {
        for (const piece of pieces) {
          held.push(piece);
          yield piece;
        }
      },
    };
    const path = join(folder, 'deferred');
    await writeChunks(
      path,
      [
        { offset: 4, bytes: deferred },
        { offset: 0, bytes: Uint8Array.of(1, 2, 3, 4) },
      ],
      4,
    );
    expect(Buffer.from(await readFile(path)).equals(Buffer.concat([Uint8Array.of(1, 2, 3, 4), ...pieces]))).toBe(true);
    expect(held).toHaveLength(4);
    const short: DeferredBytes = { byteLength: 21, pieces: () => pieces };
    await expect(writeChunks(join(folder, 'short'), [{ offset: 0, bytes: short }])).rejects.toThrow(/gave 20 bytes, not the 21 it declared/);
  });
});
