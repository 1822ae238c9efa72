import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { search } from '@reward-lens/search';
import { createScriptedPolicy } from '@reward-lens/search/testing';
import { startCompletionsTestServer } from '@reward-lens/remote/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProcessRM } from '../load-process-rm.js';
import { jsonLines, runMain } from '../../test/support/run-main.js';
import { flags } from '../../test/support/flags.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-cli-search-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const problem = 'Compute 2 + 3, then multiply by 4.';
const script = {
  '': ['2 + 3 = 5', '2 + 3 = 6', 'First add', '2 + 3 = 7'],
  '2 + 3 = 5': ['5 * 4 = 20. The answer is \\boxed{20}.', '5 * 4 = 24'],
  '2 + 3 = 6': ['6 * 4 = 24. The answer is \\boxed{24}.'],
  'First add': ['2 + 3 = 5', 'The answer is \\boxed{20}.'],
  'First add\n2 + 3 = 5': ['5 * 4 = 20. The answer is \\boxed{20}.'],
  '2 + 3 = 7': ['7 * 4 = 28. The answer is \\boxed{28}.'],
  '2 + 3 = 5\n5 * 4 = 24': ['The answer is \\boxed{24}.'],
};

describe('reward-lens search', () => {
  it.each(['beam', 'dvts', 'best-of-n'] as const)('%s with a scripted policy and the default PRM: the API’s result, with counts', async (strategy) => {
    const file = join(root, 'script.json');
    await writeFile(file, JSON.stringify(script));
    const { exitCode, stdout } = await runMain(['search', ...flags({ policy: file, problem, strategy, n: '4', 'beam-width': '2', json: true })]);
    expect(exitCode).toBe(0);
    const [result] = jsonLines(stdout) as unknown as {
      pick: number;
      answer: string;
      solutions: { steps: string[] }[];
      counts: Record<string, number | boolean>;
    }[];
    const prm = await loadProcessRM({ backend: 'tiny' });
    const expected = await search(prm, createScriptedPolicy({ script }), problem, { strategy, n: 4, beamWidth: 2 });
    await prm.dispose();
    expect(result!.solutions.map((solution) => solution.steps)).toEqual(expected.solutions.map((solution) => solution.steps));
    expect(result!.pick).toBe(expected.pick);
    expect(result!.answer).toBe(expected.solutions[expected.pick!]!.normalized);
    expect(result!.counts).toMatchObject({ generatedTokens: expected.counts.generatedTokens, proposals: expected.counts.proposals, scoredTokensExact: true });
    expect(result!.counts.scoredTokens).toBeGreaterThan(0);
  });

  it('searches with a policy served over HTTP (streamed), reports accuracy against the answers', async () => {
    // The "model": the next step of the prompt's solution, by how many steps it already has.
    const server = await startCompletionsTestServer((body) => {
      const steps = body.prompt.split('\n\n')[1]!.split('\n').filter(Boolean).length;
      const text = steps === 0 ? '3 + 4 = 7' : 'The answer is \\boxed{7}.';
      return { kind: 'complete', text, stopReason: steps === 0 ? '\n' : null, completionTokens: steps === 0 ? 5 : 7 };
    });
    try {
      const file = join(root, 'problems.jsonl');
      await writeFile(file, `${JSON.stringify({ problem: 'Add 3 and 4.', answer: '7' })}\n${JSON.stringify({ problem: 'Add 3 and 4 again.', answer: 8 })}\n`);
      const { exitCode, stdout, stderr } = await runMain([
        'search',
        ...flags({ policy: server.baseURL, stream: true, file, n: '2', 'beam-width': '2', json: true }),
      ]);
      expect(exitCode).toBe(0);
      const results = jsonLines(stdout);
      expect(results.map((result) => [result.line, result.answer, result.correct])).toEqual([
        [1, '7', true],
        [2, '7', false],
      ]);
      // Beam search: 2 first steps (5 tokens each), then 2 proposals for the one distinct kept prefix... each of 7 tokens.
      expect((results[0]!.counts as { generatedTokens: number }).generatedTokens).toBe(2 * 5 + 2 * 7);
      expect(stderr).toMatch(/searched 2 of 2 problems, 0 errors; 1 of 2 right \(50\.0%\)/);
      expect(server.requests.every((request) => request.stream === true && request.model === 'test-model')).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('fills the prompt template and ends steps at the step delimiter', async () => {
    const server = await startCompletionsTestServer(() => ({ kind: 'complete', text: 'The answer is \\boxed{7}.', stopReason: null }));
    try {
      const problemText = 'What is $$3 + 4$$?';
      const args = [
        'search',
        '--policy',
        server.baseURL,
        '--problem',
        problemText,
        '--n',
        '2',
        '--beam-width',
        '2',
        '--template',
        'Q: {problem}\\nA:\\n{steps}',
        '--step-delimiter',
        '\\n\\n',
      ];
      expect((await runMain(args)).exitCode).toBe(0);
      expect(server.requests[0]).toMatchObject({ prompt: `Q: ${problemText}\nA:\n`, stop: ['\n\n'] });
    } finally {
      await server.close();
    }
  });

  it('prints the chosen solution with its step scores and what was spent', async () => {
    const { exitCode, stdout } = await runMain([
      'search',
      ...flags({ policy: 'tiny', problem: 'Add 2 and 3.', n: '2', 'beam-width': '2', 'max-steps': '2', 'max-step-tokens': '8' }),
    ]);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^── problem: beam, \d+ solutions?; chose #\d+/);
    expect(stdout).toMatch(/generated \d+ tokens in \d+ proposed steps; scored \d+ tokens/);
  });

  it('refuses a beam width that does not divide n, and a missing policy', async () => {
    expect((await runMain(['search', '--policy', 'tiny', '--problem', 'x', '--n', '6', '--beam-width', '4'])).stderr).toMatch(/--beam-width must divide --n/);
    expect((await runMain(['search', '--problem', 'x'])).stderr).toMatch(/--policy is required/);
  });
});
