import { PassThrough, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { jsonLines, natalia, packagePath, runMain } from '../../test/support/run-main.js';

const good = (index: number) =>
  JSON.stringify({ problem: `Problem ${index}: what is ${index} + ${index}?`, solution: `${index} + ${index} = ${2 * index}.\nThe answer is ${2 * index}.` });

/** Lines 1..9 of a JSONL file: six good records, a blank line, bad JSON, a bad shape. */
const mixedJsonl = [
  good(1), // line 1
  good(2), // line 2
  '', // line 3: blank, skipped but counted
  '{"problem": "broken", "solution": ', // line 4: invalid JSON
  good(3), // line 5
  JSON.stringify({ problem: 'no solution here' }), // line 6: wrong shape
  JSON.stringify({ problem: 'given steps', steps: ['First, 1 + 1 = 2.', 'So the answer is 2.'] }), // line 7
  good(4), // line 8
  good(5), // line 9
].join('\n');

describe('score with JSONL', () => {
  it('streams one JSON line per record, in input order, with error records for bad lines', async () => {
    const { exitCode, stdout, stderr } = await runMain(['score', '-'], { stdin: `${mixedJsonl}\n` });
    expect(exitCode).toBe(1);
    const records = jsonLines(stdout);
    expect(records.map((record) => record.line)).toEqual([1, 2, 4, 5, 6, 7, 8, 9]);
    expect(records[2]).toEqual({ line: 4, error: { code: 'INVALID_INPUT', message: expect.stringMatching(/^invalid JSON: /) } });
    expect(records[4]).toEqual({ line: 6, error: { code: 'INVALID_INPUT', message: expect.stringContaining('"solution" must be a string') } });
    for (const record of [records[0], records[1], records[3], records[5], records[6], records[7]]) {
      const scores = record!.stepScores as number[];
      expect(record!.outcome).toBe(scores[scores.length - 1]);
      expect(record!.error).toBeUndefined();
    }
    expect(records[5]!.steps).toEqual(['First, 1 + 1 = 2.', 'So the answer is 2.']);
    expect(stderr).toBe('reward-lens: scored 6 of 8 records, 2 errors\n');
  });

  it('a line that is not valid UTF-8 is an error record with its line number, not scored with U+FFFD', async () => {
    const stdin = Buffer.concat([
      Buffer.from(`${good(1)}\n`),
      Buffer.from('{"problem": "caf'),
      Uint8Array.of(0xe9), // Latin-1 "é": not UTF-8
      Buffer.from(`", "solution": "a.\\nb."}\r\n${good(2)}\n`),
    ]);
    const { exitCode, stdout } = await runMain(['score', '-'], { stdin });
    expect(exitCode).toBe(1);
    const records = jsonLines(stdout);
    expect(records.map((record) => record.line)).toEqual([1, 2, 3]);
    expect(records[1]).toEqual({
      line: 2,
      error: { code: 'INVALID_INPUT', message: expect.stringMatching(/^the line is not valid UTF-8 \(byte 17 of the line\)/) },
    });
    expect(records[2]!.stepScores).toHaveLength(2);
  });

  it('gives identical results with batch size 1 and 8', async () => {
    const one = await runMain(['score', '-', '--batch-size', '1'], { stdin: mixedJsonl });
    const eight = await runMain(['score', '-', '--batch-size', '8'], { stdin: mixedJsonl });
    expect(one.stdout).toBe(eight.stdout);
    expect(jsonLines(one.stdout)).toHaveLength(8);
  });

  it('a record that fails while scoring (too long, empty) errors alone; its batch-mates still score', async () => {
    const input = [
      good(1),
      JSON.stringify({ problem: 'far too long', solution: 'x '.repeat(3000) }),
      good(2),
      JSON.stringify({ problem: 'empty', solution: '  ' }),
      good(3),
    ].join('\n');
    const { exitCode, stdout, stderr } = await runMain(['score', '-', '--batch-size', '8'], { stdin: input });
    expect(exitCode).toBe(1);
    const records = jsonLines(stdout);
    expect(records.map((record) => record.line)).toEqual([1, 2, 3, 4, 5]);
    expect((records[1]!.error as { code: string }).code).toBe('SEQUENCE_TOO_LONG');
    expect((records[3]!.error as { code: string }).code).toBe('INVALID_INPUT');
    const alone = jsonLines((await runMain(['score', '-'], { stdin: good(2) })).stdout)[0]!;
    expect(records[2]).toEqual({ ...alone, line: 3 });
    expect(stderr).toContain('scored 3 of 5 records, 2 errors');
  });

  it('writes each batch while stdin is still open', async () => {
    const stdin = new PassThrough();
    let stdout = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        stdout += String(chunk);
        callback();
      },
    });
    const run = main(['score', '--batch-size', '2'], { stdin, stdout: sink, stderr: new PassThrough() });
    stdin.write(`${good(1)}\n${good(2)}\n`);
    for (let waited = 0; jsonLines(stdout).length < 2 && waited < 200; waited++) await sleep(25);
    expect(jsonLines(stdout).map((record) => record.line)).toEqual([1, 2]);
    stdin.end(`${good(3)}\n`);
    expect(await run).toBe(0);
    expect(jsonLines(stdout).map((record) => record.line)).toEqual([1, 2, 3]);
  });

  it('with all records good, exits 0 and stays quiet on stderr', async () => {
    const { exitCode, stdout, stderr } = await runMain(['score'], { stdin: [good(1), good(2)].join('\r\n') });
    expect(exitCode).toBe(0);
    expect(jsonLines(stdout)).toHaveLength(2);
    expect(stderr).toBe('');
  });

  it('--table prints a table per record, errors on stderr', async () => {
    const { exitCode, stdout, stderr } = await runMain(['score', '-', '--table'], { stdin: mixedJsonl });
    expect(exitCode).toBe(1);
    expect(stdout).toContain('── line 1\n');
    expect(stdout).toContain('── line 9\n');
    expect(stdout).not.toContain('── line 4');
    expect(stdout.match(/^ {2}outcome /gm)).toHaveLength(6);
    expect(stderr).toContain('reward-lens: line 4: INVALID_INPUT: invalid JSON');
    expect(stderr).toContain('reward-lens: line 6: INVALID_INPUT:');
  });

  it('scores the bundled examples/batch.jsonl, one error record for its bad line', async () => {
    const { exitCode, stdout } = await runMain(['score', '--file', packagePath('examples/batch.jsonl')]);
    expect(exitCode).toBe(1);
    const records = jsonLines(stdout);
    expect(records.filter((record) => record.error !== undefined)).toHaveLength(1);
    expect(records.filter((record) => Array.isArray(record.steps))).toHaveLength(records.length - 1);
  });
});

describe('score with JSON', () => {
  it('a pretty-printed object on stdin is one record, shown as a table', async () => {
    const { exitCode, stdout } = await runMain(['score'], { stdin: JSON.stringify(natalia, null, 2) });
    expect(exitCode).toBe(0);
    expect(stdout).toContain('problem  Natalia');
    expect(stdout).toMatch(/^ {2}outcome /m);
  });

  it('an array gives a table per record, or with --json lines labelled by index', async () => {
    const records = [natalia, { problem: 'bad' }, { problem: 'q', steps: ['a', 'b'] }];
    const table = await runMain(['score'], { stdin: JSON.stringify(records, null, 2) });
    expect(table.exitCode).toBe(1);
    expect(table.stdout).toContain('── index 0');
    expect(table.stdout).toContain('── index 2');
    expect(table.stderr).toContain('reward-lens: index 1: INVALID_INPUT');
    const json = jsonLines((await runMain(['score', '--json'], { stdin: JSON.stringify(records) })).stdout);
    expect(json.map((record) => record.index)).toEqual([0, 1, 2]);
    expect(json[1]!.error).toBeDefined();
  });

  it('a JSON object of the wrong shape stops the run with the reason', async () => {
    const { exitCode, stderr } = await runMain(['score', '-'], { stdin: '{\n  "problem": 3\n}' });
    expect(exitCode).toBe(1);
    expect(stderr).toBe('reward-lens: INVALID_INPUT: stdin: "problem" must be a string, got number 3\n');
  });

  it('a lone surrogate escaped in JSON ("\\ud800") is invalid text, as invalid UTF-8 bytes are, and the batch goes on', async () => {
    const stdin = `${JSON.stringify({ problem: 'p', solution: 'a\ud800' })}\n${JSON.stringify({ problem: 'p', solution: 'a\nb' })}\n`;
    const { exitCode, stdout } = await runMain(['score', '-', '--json'], { stdin });
    expect(exitCode).toBe(1);
    const [bad, good] = jsonLines(stdout) as { error: { message: string }; stepScores: number[] }[];
    expect(bad!.error.message).toMatch(/"solution" holds a lone surrogate \(U\+D800 at character 1\): not valid text/);
    expect(good!.stepScores).toHaveLength(2);
  });

  it('a number JSON cannot hold (1e999) is said as what it is, not as null', async () => {
    const { exitCode, stdout } = await runMain(['score', '-'], { stdin: '{"problem": 1e999, "solution": "a"}' });
    expect(exitCode).toBe(1);
    expect((jsonLines(stdout)[0] as { error: { message: string } }).error.message).toBe(
      '"problem" must be a string, got number Infinity (JSON has no such number: a literal out of range, like 1e999)',
    );
  });

  it('an empty explicit stdin is zero records; an implicit one is a usage error', async () => {
    expect(await runMain(['score', '-'], { stdin: '\n\n' })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    const implicit = await runMain(['score'], { stdin: '' });
    expect(implicit.exitCode).toBe(2);
    expect(implicit.stderr).toContain('no input');
  });
});
