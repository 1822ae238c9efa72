import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rerank } from '@reward-lens/search';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProcessRM } from '../load-process-rm.js';
import { jsonLines, runMain } from '../../test/support/run-main.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-cli-rerank-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const problem = 'Natalia sold 48 clips in April and half as many in May. How many clips did she sell in all?';
const candidates = [
  'In May she sold 48 / 2 = 24 clips.\nIn all 48 + 24 = 72 clips.\nThe answer is 72.',
  ['In May she sold 24 clips.', 'So $\\boxed{72}$ clips.'],
  'In May she sold 96 clips.\nIn all 144 clips.\nThe answer is 144 clips.',
];

describe('reward-lens rerank', () => {
  it('gives per line the pick, the answers and the votes, as the API does; a bad line is an error record and the run goes on', async () => {
    const input = [
      JSON.stringify({ problem, candidates, answer: 72 }),
      '{"problem": 3}',
      'not json',
      JSON.stringify({ problem, candidates: candidates.slice(2) }),
    ].join('\n');
    const { exitCode, stdout, stderr } = await runMain(['rerank', '--json', '-q'], { stdin: input });
    expect(exitCode).toBe(1);
    const lines = jsonLines(stdout);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatchObject({ line: 2, error: { code: 'INVALID_INPUT', message: '"problem" must be a string' } });
    expect(lines[2]).toMatchObject({ line: 3, error: { code: 'INVALID_INPUT' } });
    expect(stderr).toMatch(/reranked 2 of 4 records, 2 errors; 1 of 1 picks right|reranked 2 of 4 records, 2 errors; 0 of 1 picks right/);

    // The same PRM the command loads by default, through the API.
    const prm = await loadProcessRM({ backend: 'tiny' });
    const expected = await rerank(prm, problem, candidates, { method: 'weighted-vote', aggregate: 'min' });
    await prm.dispose();
    const first = lines[0] as {
      pick: number;
      answers: { answer: string; normalized: string; score: number }[];
      votes: { answer: string; score: number; count: number }[];
      correct: boolean;
    };
    expect(first.pick).toBe(expected.pick);
    expect(first.answers.map(({ answer, normalized }) => [answer, normalized])).toEqual([
      ['72', '72'],
      ['72', '72'],
      ['144 clips', '144'],
    ]);
    first.answers.forEach((answer, index) => expect(answer.score).toBeCloseTo(expected.candidates[index]!.score!, 6));
    expect(first.votes.map((vote) => vote.answer)).toEqual(expected.votes.map((vote) => vote.normalized));
    const seventyTwo = first.votes.find((vote) => vote.answer === '72')!;
    expect(seventyTwo.count).toBe(2);
    expect(seventyTwo.score).toBeCloseTo(first.answers[0]!.score + first.answers[1]!.score, 6);
    expect(first.correct).toBe(expected.answer === '72');
    expect(lines[3]).toMatchObject({ line: 4, pick: 0, votes: [{ answer: '144', count: 1 }] });
  });

  it('prints a table per record from a file, with the chosen method', async () => {
    const file = join(root, 'candidates.jsonl');
    await writeFile(file, `${JSON.stringify({ problem, candidates })}\n`);
    const { exitCode, stdout } = await runMain(['rerank', '--file', file, '--method', 'majority-vote']);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^── line 1: pick 0 by majority-vote, answer 72, score /);
    expect(stdout).toMatch(/^\* {2}0 /m);
    expect(stdout).toMatch(/^votes \(summed score, candidates\): .*72 [\d.-]+ \(2\)/m);
    expect(stdout).toMatch(/^votes .*144 [\d.-]+ \(1\)/m);
  });

  it('a line that is not valid UTF-8 is an error record naming its line, not reranked with U+FFFD', async () => {
    const file = join(root, 'latin1.jsonl');
    const good = JSON.stringify({ problem, candidates: candidates.slice(2) });
    const bad = new TextEncoder().encode(`{"problem": "caf`);
    await writeFile(file, Buffer.concat([Buffer.from(`${good}\n`), bad, Uint8Array.of(0xe9), Buffer.from(`", "candidates": ["a"]}\n${good}\n`)]));
    const { exitCode, stdout } = await runMain(['rerank', '--file', file, '--json', '-q']);
    expect(exitCode).toBe(1);
    const lines = jsonLines(stdout);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatchObject({ line: 2, error: { code: 'INVALID_INPUT', message: expect.stringMatching(/not valid UTF-8/) } });
    expect(lines[0]).toMatchObject({ line: 1, pick: 0 });
    expect(lines[2]).toMatchObject({ line: 3, pick: 0 });
  });

  it('refuses unknown methods and aggregators, and a missing file before loading a model', async () => {
    expect((await runMain(['rerank', '--method', 'vote'], { stdin: '{}' })).stderr).toMatch(/--method must be one of weighted-vote, best-of-n, majority-vote/);
    expect((await runMain(['rerank', '--aggregate', 'median'], { stdin: '{}' })).exitCode).toBe(2);
    const missing = await runMain(['rerank', '--file', join(root, 'missing.jsonl')]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/INVALID_INPUT: .*missing\.jsonl: cannot read the file/);
  });
});
