import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOrganism, createOrganismPolicy, verifySolution } from '@reward-lens/organism';
import { generatorPolicy, search, stepLinesPrompt } from '@reward-lens/search';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProcessRM } from '../load-process-rm.js';
import { jsonLines, runMain } from '../../test/support/run-main.js';
import { flags } from '../../test/support/flags.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-cli-organism-policy-'));
afterAll(() => rm(root, { recursive: true, force: true }));

// Seed 3's first 12 items hold one (a compensating error) whose prefix the policy cannot continue.
const items = createOrganism({ seed: 3, steps: [3, 5] }).items(12);
/** Whether the policy can continue every prefix (a flawed item's "27 ÷ 4 = 7" leaves a quantity it cannot carry on). */
const continuable = (problem: string, steps: readonly string[]) =>
  steps.every((_, index) => {
    try {
      createOrganismPolicy().successProbability(problem, steps.slice(0, index + 1));
      return true;
    } catch {
      return false;
    }
  });

let problems: string;
let solutions: string;
beforeAll(async () => {
  problems = join(root, 'problems.jsonl');
  solutions = join(root, 'solutions.jsonl');
  await writeFile(problems, items.map((item) => JSON.stringify({ problem: item.problem, answer: item.answer })).join('\n'));
  await writeFile(solutions, items.map((item) => JSON.stringify({ problem: item.problem, steps: item.steps, answer: item.answer })).join('\n'));
});

describe('reward-lens search --policy organism', () => {
  it('an error-free policy (error=0) solves every problem, and every chosen step verifies', async () => {
    const { exitCode, stdout, stderr } = await runMain([
      'search',
      ...flags({ policy: 'organism:error=0', file: problems, n: '4', 'beam-width': '2', json: true }),
    ]);
    expect(exitCode).toBe(0);
    const results = jsonLines(stdout) as unknown as { correct: boolean; pick: number; solutions: { steps: string[] }[] }[];
    expect(results.map((result) => result.correct)).toEqual(items.map(() => true));
    results.forEach((result, index) => {
      expect(verifySolution(items[index]!.problem, result.solutions[result.pick]!.steps).firstErrorStep).toBe(-1);
    });
    expect(stderr).toMatch(new RegExp(`${items.length} of ${items.length} right \\(100\\.0%\\)`));
  });

  it.each(['beam', 'dvts', 'best-of-n'] as const)("%s: the API's search with the organism's policy, solution for solution", async (strategy) => {
    const [item] = items;
    const { exitCode, stdout } = await runMain([
      'search',
      ...flags({
        policy: 'organism:error=0.3,rescue=0.2,kinds=wrong-result+wrong-copy',
        problem: item!.problem,
        strategy,
        n: '4',
        'beam-width': '2',
        seed: '7',
        json: true,
      }),
    ]);
    expect(exitCode).toBe(0);
    const [result] = jsonLines(stdout) as unknown as {
      pick: number;
      solutions: { steps: string[]; stepScores: number[] }[];
      counts: { generatedTokens: number };
    }[];
    // The CLI's PRM without --model: the default PRM.
    const prm = await loadProcessRM({ backend: 'tiny' });
    const organism = createOrganismPolicy({ errorProbability: 0.3, rescueProbability: 0.2, errorKinds: ['wrong-result', 'wrong-copy'] });
    const expected = await search(prm, generatorPolicy(organism, { prompt: stepLinesPrompt }), item!.problem, { strategy, n: 4, beamWidth: 2, seed: 7 });
    await prm.dispose();
    expect(result!.solutions.map((solution) => solution.steps)).toEqual(expected.solutions.map((solution) => solution.steps));
    expect(result!.pick).toBe(expected.pick);
    expect(result!.counts.generatedTokens).toBe(expected.counts.generatedTokens);
    // The organism wrote every step: the verifier reads each solution whole.
    for (const solution of result!.solutions)
      expect(verifySolution(item!.problem, solution.steps).steps.every((step) => step.verdict !== 'unparseable')).toBe(true);
  });

  it.each([
    ['organism:error=2', /organism's error must be a probability/],
    ['organism:speed=1', /takes error, rescue and kinds; got "speed"/],
    ['organism:kinds=wrong-result+typo', /got typo/],
    ['organism:error', /key=value/],
    ['tiny:x', /the tiny policy takes no settings/],
  ])('refuses --policy %s (exit 2)', async (policy, message) => {
    const { exitCode, stderr } = await runMain(['search', '--policy', policy, '--problem', items[0]!.problem]);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('refuses a prompt template or step delimiter for the organism (it writes its own layout)', async () => {
    const { exitCode, stderr } = await runMain(['search', '--policy', 'organism', '--problem', items[0]!.problem, '--step-delimiter', '\\n\\n']);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(/--template and --step-delimiter do not apply/);
  });
});

describe('reward-lens label --policy organism', () => {
  it("an error-free completer's values are the policy's closed form, 0 or 1; a record it cannot continue is reported and the run goes on", async () => {
    const { exitCode, stdout, stderr } = await runMain([
      'label',
      ...flags({ policy: 'organism:error=0', file: solutions, rollouts: '3', labels: 'soft', details: true }),
    ]);
    const exact = createOrganismPolicy({ errorProbability: 0 });
    const labelled = items.filter((item) => continuable(item.problem, item.steps));
    expect(labelled.length).toBeGreaterThan(items.length / 2);
    const rows = jsonLines(stdout) as unknown as { prompt: string; labels: number[]; values: number[] }[];
    expect(rows.map((row) => row.prompt)).toEqual(labelled.map((item) => item.problem));
    rows.forEach((row, index) => {
      const item = labelled[index]!;
      // With p = 0 a rollout is right exactly when the prefix is on track (v_0 included).
      expect(row.values).toEqual(
        item.steps.map((_, k) => exact.successProbability(item.problem, item.steps.slice(0, k))).concat(item.finalAnswerCorrect ? 1 : 0),
      );
      expect(row.labels).toEqual(row.values.slice(1));
    });
    const refused = items.length - labelled.length;
    expect(refused).toBe(1);
    expect(exitCode).toBe(1);
    expect(stderr.match(/INVALID_INPUT: after step \d+: the running quantity/g) ?? []).toHaveLength(refused);
    expect(stderr).toMatch(new RegExp(`labelled ${labelled.length} of ${items.length} records, ${refused} error`));
  });

  it('--policy and --completer are one flag: given both, it is a usage error', async () => {
    const { exitCode, stderr } = await runMain(['label', '--policy', 'organism', '--completer', 'organism', '--file', solutions]);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(/give the completer once/);
  });
});
