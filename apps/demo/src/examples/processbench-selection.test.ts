import { readFileSync } from 'node:fs';
import { sharedDataPath } from '@reward-lens/test-data';
import { describe, expect, it } from 'vitest';
import { processBenchIds, selectProcessBenchExamples } from './processbench-selection.js';

describe('the ProcessBench items the demo ships', () => {
  const split = JSON.parse(readFileSync(sharedDataPath('processbench/gsm8k.json'), 'utf8')) as { id: string; steps: string[]; label: number }[];

  it('are the listed items of the shared split, unchanged, with errors at steps 0, 1 and 2 and without', () => {
    const selected = selectProcessBenchExamples(split);
    expect(selected.map((item) => item.id)).toEqual([...processBenchIds]);
    for (const item of selected) {
      const original = split.find((record) => record.id === item.id)!;
      expect(item).toEqual(original);
    }
    expect(new Set(selected.map((item) => item.label))).toEqual(new Set([-1, 0, 1, 2]));
    // gsm8k-0 is the Qwen2.5-Math-PRM card's example: ProcessBench labels step 1 (0-based) its first error.
    expect(selected[0]).toMatchObject({ id: 'gsm8k-0', label: 1 });
  });

  it('names a missing or malformed item', () => {
    expect(() => selectProcessBenchExamples(split.filter((record) => record.id !== 'gsm8k-33'))).toThrow(/ProcessBench item gsm8k-33 is not in the file/);
    const broken = split.map((record) => (record.id === 'gsm8k-0' ? { ...record, steps: ['one\ntwo', ...record.steps.slice(1)] } : record));
    expect(() => selectProcessBenchExamples(broken)).toThrow(/ProcessBench item gsm8k-0 has a step that is not one line of text/);
    const unlabelled = split.map((record) => (record.id === 'gsm8k-26' ? { ...record, label: 9 } : record));
    expect(() => selectProcessBenchExamples(unlabelled)).toThrow(/ProcessBench item gsm8k-26: label must be -1 or a step index below 4/);
    expect(() => selectProcessBenchExamples({})).toThrow(/not a JSON array/);
  });
});
