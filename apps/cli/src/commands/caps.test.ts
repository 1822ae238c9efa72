import { describe, expect, it } from 'vitest';
import { jsonLines, runMain } from '../../test/support/run-main.js';

describe('caps', () => {
  it('lists the capability string, backend, precision, model, heads, cache and registered backends', async () => {
    const { exitCode, stdout, stderr } = await runMain(['caps']);
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^capabilities\s+SCORES\|PREFIX_SCORES\|ACTIVATIONS\|GRADIENTS\|HVP\|LINEAR_READOUT\|STEP_SCORES$/m);
    expect(stdout).toMatch(/^backend +tiny$/m);
    expect(stdout).toMatch(/^precision +fp32$/m);
    expect(stdout).toMatch(/^model +llama/m);
    // The default PRM: a 2-class step head.
    expect(stdout).toMatch(/^heads +classifier \(token-classification, width 2\), lm \(lm, width 600\)$/m);
    expect(stdout).toMatch(/^kv cache +supported$/m);
    expect(stdout.replace(/\n +/g, ' ')).toMatch(
      /^registered +webgpu \(priority 30\), onnx-node \(priority 20\), onnx-web \(priority 15\), tiny \(priority 10\), webgpu-software \(priority 5, by name only\)/m,
    );
  });

  it('--json gives the same facts as one object', async () => {
    const { exitCode, stdout } = await runMain(['caps', '--json', '--seed', '3']);
    expect(exitCode).toBe(0);
    const [report] = jsonLines(stdout);
    expect(report).toMatchObject({
      capabilities: 'SCORES|PREFIX_SCORES|ACTIVATIONS|GRADIENTS|HVP|LINEAR_READOUT|STEP_SCORES',
      capabilityNames: ['SCORES', 'PREFIX_SCORES', 'ACTIVATIONS', 'GRADIENTS', 'HVP', 'LINEAR_READOUT', 'STEP_SCORES'],
      backend: 'tiny',
      precision: 'fp32',
      supportsCache: true,
      recipe: { name: 'plain-value' },
    });
    expect(report!.heads).toContainEqual({ name: 'value', kind: 'value', width: 1 });
    expect(report!.registeredBackends).toContainEqual(expect.objectContaining({ name: 'tiny' }));
  });

  it('an unknown backend is a reward-lens error, exit 1', async () => {
    const { exitCode, stderr } = await runMain(['caps', '--backend', 'nope']);
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^reward-lens: BACKEND_RESOLUTION: /);
  });
});
