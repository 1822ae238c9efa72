import { describe, expect, it } from 'vitest';
import { stderrStream } from '../../test/support/stderr-stream.js';
import { ProgressReporter } from './progress-reporter.js';

describe('ProgressReporter', () => {
  it('off a terminal, writes a line each time another 50 records are done, none before', () => {
    const stderr = stderrStream(false);
    const progress = new ProgressReporter(stderr.stream, { enabled: true });
    for (const done of [8, 16, 48]) progress.update(done, 0);
    expect(progress.showedProgress).toBe(false);
    for (const done of [56, 64, 96, 104, 160]) progress.update(done, 1);
    expect(stderr.text()).toBe('reward-lens: 56 records done, 1 error\nreward-lens: 104 records done, 1 error\nreward-lens: 160 records done, 1 error\n');
    expect(progress.showedProgress).toBe(true);
  });

  it('on a terminal, rewrites one counter in place and clears it', () => {
    const stderr = stderrStream(true);
    const progress = new ProgressReporter(stderr.stream, { enabled: true });
    progress.update(1, 0);
    progress.update(2, 2);
    progress.clear();
    expect(stderr.text()).toBe('\r\u001b[Kreward-lens: 1 record done\r\u001b[Kreward-lens: 2 records done, 2 errors\r\u001b[K');
  });

  it('writes nothing when disabled (--quiet)', () => {
    const stderr = stderrStream(true);
    const progress = new ProgressReporter(stderr.stream, { enabled: false });
    progress.update(500, 0);
    progress.clear();
    expect(stderr.text()).toBe('');
  });
});
