import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultLabelExperiment, runLabelExperiment } from '../src/organism-labels.js';
import { defaultSearchExperiment, runSearchExperiment } from '../src/organism-search.js';
import { strategyNames } from '../src/lib/compare-strategies.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-experiments-'));
afterAll(() => rm(root, { recursive: true, force: true }));

// The experiments' scripts on a tiny budget: every part runs and prints its table (the numbers are the unit tests' business).
describe('the organism experiments on a tiny budget', () => {
  it('search: every strategy at each budget, as a markdown table', async () => {
    const result = await runSearchExperiment({ ...defaultSearchExperiment, problems: 2, budgets: [2], beamWidth: 2, prm: 'verifier' });
    expect(result.perBudget.map(({ n, summaries }) => [n, summaries.map((summary) => summary.strategy)])).toEqual([[2, [...strategyNames]]]);
    expect(result.markdown).toMatch(/\| n \| strategy \| answer right \| no wrong step \| generated tokens \| PRM tokens \|/);
    expect(result.markdown.split('\n').filter((line) => line.startsWith('| 2 |'))).toHaveLength(strategyNames.length);
    expect(result.oneSampleExact).toBeGreaterThan(0);
    expect(result.oneSampleExact).toBeLessThan(1);
  });

  it('labels: the label-quality table, then two PRMs trained and scored on unseen seeds', async () => {
    const out = join(root, 'labels');
    const result = await runLabelExperiment({
      ...defaultLabelExperiment,
      items: 6,
      rollouts: [1, 2],
      train: {
        items: 8,
        rollouts: 2,
        heldOut: 6,
        budget: { steps: 2, batchTokens: 256, learningRate: 1e-3, seed: 0, hiddenSize: 16, numLayers: 1, numHeads: 2, intermediateSize: 32 },
        out,
      },
    });
    expect(result.quality.map((row) => row.rollouts)).toEqual([1, 2]);
    expect(result.training!.models.map((model) => model.labels)).toEqual(['Monte-Carlo', 'true']);
    for (const model of result.training!.models) {
      expect(Number.isFinite(model.auroc)).toBe(true);
      expect(JSON.parse(await readFile(join(model.folder, 'config.json'), 'utf8')).architectures).toEqual(['LlamaForTokenClassification']);
    }
    expect(result.markdown).toMatch(/\| N \| hard labels right \|/);
    expect(result.markdown).toMatch(/\| Monte-Carlo labels \| /);
    expect(result.markdown).toMatch(/\| true labels \| /);
  });
});
