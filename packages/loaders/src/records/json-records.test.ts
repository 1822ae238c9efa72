import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRecordLabel, type JsonRecord, type JsonRecordSource, openJsonRecords } from './json-records.js';

async function collect(source: JsonRecordSource): Promise<JsonRecord[]> {
  const records: JsonRecord[] = [];
  for await (const record of source.records) records.push(record);
  return records;
}

describe('openJsonRecords', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'json-records-'));
  });
  afterAll(async () => rm(folder, { recursive: true, force: true }));

  it('streams JSONL: blank lines skipped, a broken line and a line of bad UTF-8 become error records, the rest go on', async () => {
    const path = join(folder, 'records.jsonl');
    const bad = Buffer.concat([Buffer.from('{"problem": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    await writeFile(path, Buffer.concat([Buffer.from('{"a": 1}\n\n{"a": \n'), bad, Buffer.from('\r\n[2]\n')]));
    const source = await openJsonRecords(path);
    expect(source.format).toBe('jsonl');
    const records = await collect(source);
    expect(records.map((record) => record.label)).toEqual([{ line: 1 }, { line: 3 }, { line: 4 }, { line: 5 }]);
    expect(records[0]).toEqual({ label: { line: 1 }, text: '{"a": 1}', value: { a: 1 } });
    expect(records[1]).toMatchObject({ error: { code: 'INVALID_INPUT', message: expect.stringMatching(/^invalid JSON/) } });
    expect(records[2]).toMatchObject({ error: { message: expect.stringMatching(/^the line is not valid UTF-8 \(byte 17 of the line\)/) } });
    expect(records[3]).toMatchObject({ value: [2] });
  });

  it('reads a .json file whole: an array is records by index, an object is one document', async () => {
    const array = join(folder, 'array.json');
    await writeFile(array, '\uFEFF[{"a": 1}, 7]');
    const many = await openJsonRecords(array);
    expect(many.format).toBe('array');
    expect(await collect(many)).toEqual([
      { label: { index: 0 }, text: '{"a":1}', value: { a: 1 } },
      { label: { index: 1 }, text: '7', value: 7 },
    ]);
    const single = join(folder, 'single.json');
    await writeFile(single, '{\n  "a": 1\n}');
    const one = await openJsonRecords(single);
    expect(one).toMatchObject({ format: 'document', value: { a: 1 } });
    expect((await collect(one)).map((record) => describeRecordLabel(record.label))).toEqual([single]);
  });

  it('tells a stream apart by content, naming it in errors', async () => {
    const jsonl = await openJsonRecords(Readable.from(['{"a": 1}\n{"a": 2}\n']), 'stdin');
    expect((await collect(jsonl)).map((record) => describeRecordLabel(record.label))).toEqual(['line 1', 'line 2']);
    expect((await openJsonRecords(Readable.from(['[\n{"a": 1}\n]']))).format).toBe('array');
    expect((await openJsonRecords(Readable.from(['\n  \n']))).format).toBe('empty');
    await expect(openJsonRecords(Readable.from(['{\n "a": \n}']), 'piped')).rejects.toThrow(/^piped: invalid JSON \(and not JSONL either/);
  });

  it('refuses what cannot be read at all, naming the file', async () => {
    await expect(openJsonRecords(join(folder, 'missing.jsonl'))).rejects.toThrow(/missing\.jsonl: cannot read the file: ENOENT/);
    const directory = join(folder, 'a-folder');
    await mkdir(directory);
    await expect(openJsonRecords(directory)).rejects.toThrow(/a-folder: is a directory, not a file of records/);
    const latin1 = join(folder, 'latin1.json');
    await writeFile(latin1, Buffer.from([0x5b, 0x22, 0xe9, 0x22, 0x5d]));
    await expect(openJsonRecords(latin1)).rejects.toThrow(/latin1\.json: the file is not valid UTF-8 \(byte 3\)/);
  });
});
