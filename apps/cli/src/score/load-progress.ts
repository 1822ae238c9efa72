import type { LoadProgress } from '@reward-lens/core';

/**
 * Loading progress on a terminal's stderr: `reward-lens: loading model.safetensors 45%`, rewritten
 * in place as each tensor is read, and cleared when loading ends. Off a terminal (a log) it stays
 * silent: loading is one step, and its notes say what was loaded.
 */
export function loadProgressReporter(stderr: NodeJS.WritableStream & { isTTY?: boolean }, options: { enabled: boolean }) {
  const shown = options.enabled && stderr.isTTY === true;
  let last = '';
  return {
    onProgress(progress: LoadProgress): void {
      if (!shown) return;
      const percent = progress.total > 0 ? Math.floor((100 * progress.loaded) / progress.total) : 100;
      const name = progress.file.split(/[\\/]/).at(-1) ?? progress.file;
      const text = `reward-lens: loading ${name} ${percent}%`;
      if (text === last) return;
      last = text;
      stderr.write(`\r\u001b[K${text}`);
    },
    /** Removes the line, so the next stderr line starts clean. */
    clear(): void {
      if (last !== '') stderr.write('\r\u001b[K');
      last = '';
    },
  };
}
