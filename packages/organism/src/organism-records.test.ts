import { describe, expect, it } from 'vitest';
import { pairRecords, toProcessBench, toTrl } from './formats.js';
import { createOrganism } from './organism.js';
import { organismItemRecord, organismRecords } from './organism-records.js';

describe('organismRecords', () => {
  const organism = createOrganism({ seed: 3 });

  it('writes items from..from+count-1 in the chosen format, with their error kinds', () => {
    const records = [...organismRecords(organism, { from: 5, count: 3, format: 'trl', labels: 'step' })];
    expect(records.map(({ record }) => record)).toEqual([5, 6, 7].map((index) => toTrl(organism.item(index), 'step')));
    expect(records.map(({ errorKind }) => errorKind)).toEqual([5, 6, 7].map((index) => organism.item(index).errorKind));
    expect([...organismRecords(organism, { count: 2 })].map(({ record }) => record)).toEqual([0, 1].map((index) => toProcessBench(organism.item(index))));
  });

  it('writes two records a matched pair: the clean one, then the flawed one', () => {
    const records = [...organismRecords(organism, { from: 1, count: 2, pairs: true, format: 'organism' })];
    const expected = [1, 2].flatMap((index) => pairRecords(organism.pair(index), (item) => item));
    expect(records.map(({ record }) => record)).toEqual(expected);
    expect(records.map(({ errorKind }) => errorKind)).toEqual([null, organism.pair(1).errorKind, null, organism.pair(2).errorKind]);
  });

  it('writes an item as ProcessBench by default', () => {
    expect(organismItemRecord(organism.item(0))).toEqual(toProcessBench(organism.item(0)));
    expect(organismItemRecord(organism.item(0), 'organism')).toEqual(organism.item(0));
  });
});
