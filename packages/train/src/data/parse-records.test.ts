import { readFile } from 'node:fs/promises';
import { sharedDataPath } from '@reward-lens/test-data';
import { describe, expect, it } from 'vitest';
import { fromProcessBench, parseRecordsText, parseStepRecord } from './parse-records.js';
import { firstErrorStep, trainingTargets } from './step-record.js';

describe('reading step-labelled records', () => {
  const processBench = { id: 'x-1', problem: 'P', steps: ['a', 'b', 'c', 'd'], label: 1, final_answer_correct: false };

  it('ProcessBench: steps before the label correct, the label wrong, later steps ignored or wrong', () => {
    expect(fromProcessBench(processBench, 'test').stepLabels).toEqual([1, 0, Number.NaN, Number.NaN]);
    expect(fromProcessBench(processBench, 'test', { afterError: 'negative' }).stepLabels).toEqual([1, 0, 0, 0]);
    expect(fromProcessBench({ ...processBench, label: -1 }, 'test').stepLabels).toEqual([1, 1, 1, 1]);
    expect(() => fromProcessBench({ ...processBench, label: 4 }, 'file:3')).toThrow(/file:3: "label" must be -1 or a step index below 4/);
  });

  it('TRL: booleans or probabilities per completion', () => {
    const record = parseStepRecord({ prompt: 'P', completions: ['a', 'b'], labels: [true, false] }, 'test');
    expect(record).toEqual({ problem: 'P', steps: ['a', 'b'], stepLabels: [1, 0] });
    expect(parseStepRecord({ prompt: 'P', completions: ['a', 'b'], labels: [0.75, 0.2] }, 'test').stepLabels).toEqual([0.75, 0.2]);
    expect(() => parseStepRecord({ prompt: 'P', completions: ['a'], labels: [1, 0] }, 'test')).toThrow(/one label per step/);
    expect(() => parseStepRecord({ prompt: 'P', completions: ['a'], labels: [1.5] }, 'test')).toThrow(/\[0, 1\]/);
  });

  it('counts steps up to the first error by default', () => {
    const record = { problem: 'P', steps: ['a', 'b', 'c'], stepLabels: [1, 0, 1] };
    expect(firstErrorStep(record)).toBe(1);
    expect(trainingTargets(record, {})).toEqual([1, 0, Number.NaN]);
    expect(trainingTargets(record, { untilFirstError: false })).toEqual([1, 0, 1]);
  });

  it('reads JSONL with line numbers in errors', () => {
    const text = `${JSON.stringify(processBench)}\n\n${JSON.stringify({ prompt: 'Q', completions: ['x'], labels: [true] })}\n{oops\n`;
    expect(() => parseRecordsText(text, 'data.jsonl')).toThrow(/data\.jsonl:4: not valid JSON/);
    expect(parseRecordsText(text.split('\n').slice(0, 3).join('\n'), 'data.jsonl')).toHaveLength(2);
  });

  it("reads ProcessBench's published gsm8k.json (a JSON array): 400 items, 193 without an error", async () => {
    const path = sharedDataPath('processbench/gsm8k.json');
    const records = parseRecordsText(await readFile(path, 'utf8'), path);
    expect(records).toHaveLength(400);
    expect(records.filter((record) => firstErrorStep(record) === -1)).toHaveLength(193);
    expect(records[0]!.id).toBe('gsm8k-0');
  });
});
