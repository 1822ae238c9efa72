import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repositoryRoot, run } from './workspace.js';

/** One record as `reward-lens score --json` prints it. */
export interface CliScore {
  outcome: number;
  stepScores: number[];
  steps: string[];
  backend: string;
}

/** The real CLI (apps/cli), run from its source as the README says: `tsx --conditions=@reward-lens/source src/bin.ts`. */
export function reward(args: readonly string[]): Promise<string> {
  return run(`${repositoryRoot}node_modules/.bin/tsx`, ['--conditions=@reward-lens/source', `${repositoryRoot}apps/cli/src/bin.ts`, ...args], {
    timeoutMs: 300_000,
  });
}

/**
 * `reward-lens score --file records.jsonl --json [modelArgs]`: every record scored in one run. The
 * default (no modelArgs) is the demo's default PRM as the page loads it, long solutions keeping their end.
 */
export async function cliScores(
  scratch: string,
  records: readonly { problem: string; solution: string }[],
  modelArgs: readonly string[] = ['--truncation', 'left'],
): Promise<CliScore[]> {
  const file = join(scratch, `score-${Date.now()}-${Math.random().toString(36).slice(2)}.jsonl`);
  await writeFile(file, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
  const stdout = await reward(['score', '--file', file, '--json', '--quiet', ...modelArgs]);
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as CliScore);
}
