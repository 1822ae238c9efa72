/** Non-terminal stderr (a CI log) gets one line per this many records once a run is this long. */
export const progressLineInterval = 50;

/**
 * Progress of a multi-record run, on stderr only (stdout carries the results). On a terminal a
 * counter rewrites itself in place; elsewhere a line every `progressLineInterval` records, so
 * short runs stay quiet and long ones still show they are alive in a log.
 */
export class ProgressReporter {
  private readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  private readonly enabled: boolean;
  private counterShown = false;
  private lastLineAt = 0;

  constructor(stderr: NodeJS.WritableStream & { isTTY?: boolean }, options: { enabled: boolean }) {
    this.stderr = stderr;
    this.enabled = options.enabled;
  }

  /** Whether the summary should be printed even when nothing failed: the user saw progress. */
  get showedProgress(): boolean {
    return this.counterShown || this.lastLineAt > 0;
  }

  update(done: number, errors: number): void {
    if (!this.enabled) return;
    const text = `reward-lens: ${done} record${done === 1 ? '' : 's'} done${errors > 0 ? `, ${errors} error${errors === 1 ? '' : 's'}` : ''}`;
    if (this.stderr.isTTY === true) {
      this.stderr.write(`\r\u001b[K${text}`);
      this.counterShown = true;
    } else if (Math.floor(done / progressLineInterval) > Math.floor(this.lastLineAt / progressLineInterval)) {
      this.stderr.write(`${text}\n`);
      this.lastLineAt = done;
    }
  }

  /** Removes the in-place counter, so the next stderr line starts clean. */
  clear(): void {
    if (this.counterShown) this.stderr.write('\r\u001b[K');
  }
}
