import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packagePath, runMain } from '../test/support/run-main.js';

describe('main', () => {
  it.each([['--help'], ['-h'], ['help']])('%s prints the command list on stdout', async (flag) => {
    const { exitCode, stdout, stderr } = await runMain([flag]);
    expect(exitCode).toBe(0);
    expect(stdout).toContain('Usage:');
    expect(stdout).toMatch(/^ {2}score {2}/m);
    for (const name of ['caps', 'recipes', 'generate', 'convert', 'export']) expect(stdout).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'));
    expect(stderr).toBe('');
  });

  it.each([
    ['score', '--help'],
    ['score', '-h'],
    ['caps', '--help'],
    ['caps', '-h'],
    ['generate', '--help'],
    ['generate', '-h'],
    ['help', 'score'],
    ['help', 'caps'],
    ['help', 'generate'],
  ])("%s %s prints that command's usage", async (command, flag) => {
    const { exitCode, stdout } = await runMain([command, flag]);
    const name = command === 'help' ? flag : command;
    expect(exitCode).toBe(0);
    expect(stdout).toContain(`reward-lens ${name}`);
    expect(stdout).toContain('--backend');
    expect(stdout).toContain('--model <folder>');
  });

  it.each([
    ['recipes', '--json'],
    ['convert', '--force'],
    ['export', '--no-past'],
  ])('%s --help prints its usage', async (command, option) => {
    for (const argv of [
      [command, '--help'],
      [command, '-h'],
      ['help', command],
    ]) {
      const { exitCode, stdout } = await runMain(argv);
      expect(exitCode).toBe(0);
      expect(stdout).toContain(`reward-lens ${command}`);
      expect(stdout).toContain(option);
    }
  });

  it('--help wins over a mistake on the same line', async () => {
    const { exitCode, stdout } = await runMain(['score', '--no-such-flag', '--help']);
    expect(exitCode).toBe(0);
    expect(stdout).toContain('reward-lens score --problem');
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
    const { exitCode, stdout } = await runMain(['--version']);
    expect(exitCode).toBe(0);
    expect(stdout).toBe(`${version}\n`);
  });

  it.each([[['frobnicate']], [['--frobnicate']], [[]]])('%j is a usage error: usage on stderr, exit 2', async (argv) => {
    const { exitCode, stdout, stderr } = await runMain(argv);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^reward-lens: (unknown command "frobnicate"|unknown option --frobnicate|no command given)\n/);
    expect(stderr).toContain('Commands:');
  });

  it.each([
    [['score', '--problem', 'p', '--solution', 's', '--bogus'], 'unknown option --bogus'],
    [['caps', '--bogus'], 'unknown option --bogus'],
    [['caps', '--seed'], "--seed <value>' argument missing"],
    [['caps', 'extra'], 'unexpected argument "extra"'],
  ])('%j exits 2 with the command usage', async (argv, message) => {
    const { exitCode, stderr } = await runMain(argv);
    expect(exitCode).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain(`reward-lens ${argv[0]}`);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
