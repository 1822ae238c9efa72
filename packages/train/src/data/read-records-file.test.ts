import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecordsFile, readTrainingSplit } from './read-records-file.js';
import { splitHeldOut } from './split-held-out.js';

const record = (index: number) => JSON.stringify({ id: `x-${index}`, problem: `P${index}`, steps: ['a', 'b'], label: -1, final_answer_correct: true });

describe('reading training records from files', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'reward-lens-train-records-'));
    await writeFile(join(folder, 'data.jsonl'), `${Array.from({ length: 20 }, (_, index) => record(index)).join('\n')}\n`);
    await writeFile(join(folder, 'held-out.jsonl'), `${record(100)}\n${record(101)}\n`);
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('a file that cannot be read names the file and what it was for', async () => {
    await expect(readRecordsFile(join(folder, 'missing.jsonl'), 'the data')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('the data cannot be read (ENOENT)'),
    });
  });

  it('holds out a seeded random share of the data, as splitHeldOut does, and says so', async () => {
    const data = join(folder, 'data.jsonl');
    const split = await readTrainingSplit({ data, heldOutFraction: 0.25, seed: 3 });
    expect(split.records).toHaveLength(20);
    expect({ training: split.training, heldOut: split.heldOut }).toEqual(splitHeldOut(split.records, 0.25, 3));
    expect(split.heldOutDescription).toBe(`5 records of ${data} held out at random (fraction 0.25, seed 3)`);
  });

  it('with a held-out file, trains on all the data', async () => {
    const heldOutPath = join(folder, 'held-out.jsonl');
    const split = await readTrainingSplit({ data: join(folder, 'data.jsonl'), heldOut: heldOutPath, heldOutFraction: 0.25, seed: 3 });
    expect(split.training).toEqual(split.records);
    expect(split.heldOut.map((entry) => entry.problem)).toEqual(['P100', 'P101']);
    expect(split.heldOutDescription).toBe(`2 records of ${heldOutPath}`);
  });
});
