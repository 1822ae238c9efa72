import { sharedDataPath } from '@reward-lens/test-data';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readProcessBenchFile } from '../node/read-processbench-file.js';
import { parseProcessBenchItem, processBenchFromJsonLines, type ProcessBenchRecord } from './processbench-item.js';

async function collect(records: AsyncIterable<ProcessBenchRecord>): Promise<ProcessBenchRecord[]> {
  const all: ProcessBenchRecord[] = [];
  for await (const record of records) all.push(record);
  return all;
}

describe('ProcessBench format', () => {
  it('reads the published GSM8K split (a JSON array)', async () => {
    const records = await collect(await readProcessBenchFile(sharedDataPath('processbench/gsm8k.json')));
    expect(records).toHaveLength(400);
    const items = records.flatMap((record) => ('item' in record ? [record.item] : []));
    expect(items).toHaveLength(400);
    expect(items.filter((item) => item.label === -1)).toHaveLength(193);
    expect(items[0]).toMatchObject({ id: 'gsm8k-0', generator: 'Qwen2-7B-Instruct', label: 1, finalAnswerCorrect: false });
  });

  it('streams JSONL, turning bad lines into error records that name the line', async () => {
    const lines = [
      JSON.stringify({ id: 'a', problem: 'p', steps: ['s1', 's2'], label: 1 }),
      '',
      '{not json',
      JSON.stringify({ id: 'b', problem: 'p', steps: ['s1'], label: 3 }),
      JSON.stringify({ id: 'c', problem: 'p', steps: [], label: -1 }),
    ];
    const records = await collect(processBenchFromJsonLines(lines));
    expect(records.map((record) => ('item' in record ? record.item.id : `${record.location}: ${record.error.message}`))).toEqual([
      'a',
      expect.stringMatching(/^line 3: line 3: invalid JSON/),
      'line 4: line 4: "label" must be -1 or a step index below 1, got 3',
      'line 5: line 5: "steps" must be a non-empty array of strings',
    ]);
  });

  it('accepts every well-formed record and keeps its fields (property)', () => {
    const record = fc
      .record({
        id: fc.oneof(fc.string(), fc.integer()),
        problem: fc.string(),
        steps: fc.array(fc.string(), { minLength: 1, maxLength: 8 }),
        correct: fc.boolean(),
      })
      .chain((base) => fc.integer({ min: -1, max: base.steps.length - 1 }).map((label) => ({ ...base, label })));
    fc.assert(
      fc.property(record, ({ id, problem, steps, label, correct }) => {
        const item = parseProcessBenchItem({ id, problem, steps, label, final_answer_correct: correct, generator: 'g' }, 'item 0');
        expect(item).toEqual({ id: String(id), problem, steps, label, finalAnswerCorrect: correct, generator: 'g' });
      }),
    );
  });

  it('a missing file is one clear error naming it', async () => {
    await expect(readProcessBenchFile('/nonexistent/split.jsonl')).rejects.toThrow(/\/nonexistent\/split.jsonl: cannot read the file/);
  });
});
