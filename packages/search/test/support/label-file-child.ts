// A labelling run for the resumability test, shared by the test and the child process it kills.
import { monteCarloLabels } from '../../src/labels/monte-carlo-labels.js';
import { toTrlRecord } from '../../src/labels/trl-record.js';
import { chainProblem, chainSolution, createChainPolicy } from '../../src/testing/chain-policy.js';
import type { LabelJob } from '../../src/labels/label-jobs.js';
import { labelFile } from '../../src/node/label-file.js';

export const fixtureRecords = 24;

async function* jobs(): AsyncGenerator<LabelJob> {
  for (let index = 0; index < fixtureRecords; index++) {
    const addends = [index + 2, 5, 7, 3, (index % 5) + 1];
    const reference = String(addends.reduce((sum, value) => sum + value, 0));
    const input = { problem: chainProblem(addends), steps: chainSolution(addends, index % 3 === 0 ? undefined : index % 5), reference };
    yield { key: `line ${index + 1}`, text: JSON.stringify(input), input };
  }
}

export function runFixtureLabelling(outputPath: string, delayMs: number) {
  const policy = createChainPolicy({ stepSuccess: 0.85, rescue: 0.1, delayMs });
  return labelFile({
    jobs: jobs(),
    outputPath,
    settings: { rollouts: 12, mode: 'sweep', policy: policy.name },
    label: async (input, { store, seed }) =>
      `${JSON.stringify(toTrlRecord(input, await monteCarloLabels(policy, input, { rollouts: 12, seed, store }), 'soft'))}\n`,
  });
}

// Run as a child process: `node --import tsx label-file-child.ts <output>`.
if (process.argv[1]?.endsWith('label-file-child.ts') && process.argv[2]) {
  await runFixtureLabelling(process.argv[2], Number(process.argv[3] ?? 20));
}
