import { describe, expect, it } from 'vitest';
import { expectScoresClose } from '../../test/support/expect-scores-close.js';
import { jsonLines, natalia, runMain } from '../../test/support/run-main.js';

const args = ['score', '--seed', '0', '--problem', natalia.problem, '--solution', natalia.solution, '--json'];

describe('score --backend <name>: every first-party backend gives the seeded model the same step scores', () => {
  it.each(['onnx-node', 'onnx-web', 'webgpu'])('%s matches tiny within the float32 tolerance', async (backend) => {
    const tiny = jsonLines((await runMain([...args, '--backend', 'tiny'])).stdout)[0] as { stepScores: number[] };
    const result = await runMain([...args, '--backend', backend]);
    expect(result.exitCode).toBe(0);
    const [record] = jsonLines(result.stdout) as { stepScores: number[]; backend: string; notes: string[] }[];
    expect(record!.backend).toBe(backend);
    expect(record!.notes[0]).toMatch(new RegExp(`^backend "${backend}" ran the seeded tiny model`));
    expectScoresClose(record!.stepScores, tiny.stepScores, 1e-4);
  });
});
