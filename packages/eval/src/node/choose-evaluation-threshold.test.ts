import '@reward-lens/backend-tiny/register';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidInputError, ProcessRM, recipeGauge } from '@reward-lens/core';
import { sharedDataPath } from '@reward-lens/test-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoreCalibrationSplit } from '../evaluate/evaluate-processbench.js';
import type { ProcessBenchRecord } from '../processbench/processbench-item.js';
import { chooseThreshold } from '../processbench/choose-threshold.js';
import { chooseEvaluationThreshold } from './choose-evaluation-threshold.js';
import { readProcessBenchFile } from './read-processbench-file.js';

describe('chooseEvaluationThreshold', () => {
  let prm: ProcessRM;
  let root: string;
  const records: ProcessBenchRecord[] = [];
  let lines: string[];

  beforeAll(async () => {
    prm = await ProcessRM.fromTiny({ seed: 0, truncation: 'left' });
    root = await mkdtemp(join(tmpdir(), 'reward-lens-eval-threshold-'));
    // GSM8K items 160-171 of the real split (its erroneous items come first): both kinds.
    const raw = JSON.parse(await readFile(sharedDataPath('processbench/gsm8k.json'), 'utf8')) as unknown[];
    lines = raw.slice(160, 172).map((record) => JSON.stringify(record));
    for await (const record of await readProcessBenchFile(sharedDataPath('processbench/gsm8k.json'))) if (records.length < 172) records.push(record);
    records.splice(0, 160);
  });
  afterAll(async () => {
    await prm.dispose();
    await rm(root, { recursive: true, force: true });
  });

  it("without a split or a value, is the default for the recipe's gauge, with its reason", async () => {
    const { threshold, calibration, notes } = await chooseEvaluationThreshold(prm, {});
    const probability = recipeGauge(prm.recipe) === 'PROBABILITY';
    expect(threshold).toEqual({ value: probability ? 0.5 : 0, source: { kind: 'fixed', reason: expect.stringMatching(/^the default/) } });
    expect(calibration).toBeUndefined();
    expect(notes).toEqual([]);
  });

  it('a fixed value carries the reason given, and refuses a split beside it', async () => {
    expect((await chooseEvaluationThreshold(prm, { threshold: 0.3, thresholdReason: 'the model card' })).threshold).toEqual({
      value: 0.3,
      source: { kind: 'fixed', reason: 'the model card' },
    });
    await expect(chooseEvaluationThreshold(prm, { threshold: 0.3, calibration: { path: 'x', method: 'platt', domain: 'd' } })).rejects.toThrow(
      InvalidInputError,
    );
  });

  it('on a split: the threshold chooseThreshold picks on its scores, a calibration fitted and saved, and a bad line in the notes', async () => {
    const path = join(root, 'calibration.jsonl');
    await writeFile(path, `${lines.join('\n')}\n{"id": "broken"}\n`);
    const save = join(root, 'calibration.json');
    const chosen = await chooseEvaluationThreshold(prm, { calibration: { path, method: 'platt', domain: 'gsm8k', save }, batchSize: 4 });

    const expected = chooseThreshold((await scoreCalibrationSplit(prm, records)).items, { name: 'calibration.jsonl' });
    expect(chosen.threshold.value).toBeCloseTo(expected.value, 6);
    expect(chosen.threshold.source).toMatchObject({ kind: 'calibration', name: 'calibration.jsonl', items: records.length });
    expect(chosen.calibration).toMatchObject({ map: { method: 'platt' }, set: { name: 'calibration.jsonl', domain: 'gsm8k', items: records.length } });
    expect(JSON.parse(await readFile(save, 'utf8'))).toEqual(JSON.parse(JSON.stringify(chosen.calibration)));
    expect(chosen.notes).toEqual(['1 solution(s) of the calibration split could not be scored and were left out']);
  });
});
