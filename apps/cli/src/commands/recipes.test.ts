import { recipePresets } from '@reward-lens/core';
import { describe, expect, it } from 'vitest';
import { jsonLines, runMain } from '../../test/support/run-main.js';

const presetNames = Object.keys(recipePresets);

describe('recipes', () => {
  it('lists every preset with its description, layout, step tag, read position, head and activation', async () => {
    const { exitCode, stdout, stderr } = await runMain(['recipes']);
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    expect(presetNames).toHaveLength(8);
    // One block per recipe, its name alone at the left margin.
    expect(stdout.split('\n').filter((line) => /^\S/.test(line))).toEqual(presetNames);
    for (const label of ['layout', 'split at', 'step tag', 'read at', 'head', 'activation']) {
      expect(stdout.match(new RegExp(`^ {2}${label.padEnd('activation'.length)} {2}\\S`, 'gm'))).toHaveLength(8);
    }
    expect(stdout).toContain('  step tag    " ки"');
    expect(stdout).toContain('  read at     the token before "+" after each step');
    expect(stdout).toMatch(/^ {2}head +classifier: a 2-label token classifier \(score\.2\.weight after\s+score\.0\.weight → ReLU\)$/m);
    expect(stdout).toContain('  activation  softmax, P("+") (gauge PROBABILITY)');
    for (const line of stdout.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(80);
  });

  it('--json gives one object per recipe: the summary and the recipe itself', async () => {
    const { exitCode, stdout } = await runMain(['recipes', '--json']);
    expect(exitCode).toBe(0);
    const records = jsonLines(stdout);
    expect(records.map((record) => record.name)).toEqual(presetNames);
    expect(records.find((record) => record.name === 'plain-value')).toMatchObject({
      layout: 'BOS <problem>\\n\\n<step1>\\n<step2>',
      splitAt: '"\\n"',
      stepTag: 'none',
      readAt: "each step's last token",
      head: 'value: a scalar value head (v_head.weight)',
      activation: 'none: the raw value',
      gauge: 'INVARIANT',
    });
    for (const record of records) expect(record.recipe).toEqual(JSON.parse(JSON.stringify(recipePresets[record.name as string])));
  });

  it('takes no arguments', async () => {
    const { exitCode, stderr } = await runMain(['recipes', 'math-shepherd']);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('unexpected argument "math-shepherd"');
  });
});
