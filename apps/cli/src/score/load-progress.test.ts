import { describe, expect, it } from 'vitest';
import { stderrStream } from '../../test/support/stderr-stream.js';
import { loadProgressReporter } from './load-progress.js';

describe('loadProgressReporter', () => {
  it('on a terminal, rewrites one line per new percentage, names the file, and clears it', () => {
    const stderr = stderrStream(true);
    const reporter = loadProgressReporter(stderr.stream, { enabled: true });
    for (const loaded of [10, 10.5, 50, 100]) reporter.onProgress({ file: '/models/prm/model.safetensors', loaded, total: 100 });
    reporter.clear();
    expect(stderr.text()).toBe(
      '\r\u001b[Kreward-lens: loading model.safetensors 10%\r\u001b[Kreward-lens: loading model.safetensors 50%\r\u001b[Kreward-lens: loading model.safetensors 100%\r\u001b[K',
    );
  });

  it('writes nothing off a terminal, or when disabled (--quiet)', () => {
    for (const [terminal, enabled] of [
      [false, true],
      [true, false],
    ] as const) {
      const stderr = stderrStream(terminal);
      const reporter = loadProgressReporter(stderr.stream, { enabled });
      reporter.onProgress({ file: 'model.safetensors', loaded: 5, total: 10 });
      reporter.clear();
      expect(stderr.text()).toBe('');
    }
  });
});
