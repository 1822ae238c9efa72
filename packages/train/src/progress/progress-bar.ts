import type { TrainingEvent } from './training-event.js';

/** Where the bar is drawn: a stream, redrawn in place when it is a terminal. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  return hours > 0 ? `${hours}h${String(minutes).padStart(2, '0')}m` : minutes > 0 ? `${minutes}m${String(rest).padStart(2, '0')}s` : `${rest}s`;
}

/**
 * A progress bar for a training run: `step 120/1000 [####......] loss 0.512 lr 3.0e-4
 * 1,234 tok/s ETA 3m12s`, redrawn in place on a terminal; elsewhere (a log, CI) one line about
 * every 5% of the run. Evaluations, checkpoints and the end get lines of their own.
 */
export function createProgressBar(stream: ProgressStream, options: { width?: number } = {}): (event: TrainingEvent) => void {
  const terminal = stream.isTTY === true;
  let averageLoss = Number.NaN;
  let drawn = false;
  const line = (text: string) => {
    if (terminal && drawn) stream.write('\r\x1b[2K');
    stream.write(`${text}\n`);
    drawn = false;
  };
  return (event) => {
    switch (event.kind) {
      case 'start':
        line(
          `training ${event.parameters.toLocaleString('en-US')} parameters for ${event.totalSteps} steps` +
            (event.resumedFrom ? `, resumed at step ${event.step} from ${event.resumedFrom}` : ''),
        );
        line(`  on backend-tiny: ${event.backend}`);
        for (const note of event.notes) line(`  note: ${note}`);
        return;
      case 'step': {
        averageLoss = Number.isNaN(averageLoss) ? event.loss : 0.9 * averageLoss + 0.1 * event.loss;
        const width = options.width ?? 20;
        const filled = Math.round((width * event.step) / event.totalSteps);
        const text =
          `step ${event.step}/${event.totalSteps} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ` +
          `loss ${event.loss.toFixed(4)} (avg ${averageLoss.toFixed(4)}) ` +
          (event.languageModelLoss !== undefined ? `lm ${event.languageModelLoss.toFixed(3)} ` : '') +
          `lr ${event.learningRate.toExponential(1)} ` +
          `${Math.round(event.tokensPerSecond).toLocaleString('en-US')} tok/s ETA ${formatDuration(event.etaSeconds)}`;
        for (const skipped of event.skipped) line(`  skipped ${skipped}`);
        if (terminal) {
          stream.write(`\r\x1b[2K${text}`);
          drawn = true;
        } else if (event.step === event.totalSteps || event.step % Math.max(1, Math.round(event.totalSteps / 20)) === 0) line(text);
        return;
      }
      case 'evaluation': {
        const { metrics } = event;
        line(
          `held-out at step ${event.step}: loss ${metrics.loss.toFixed(4)}, ProcessBench F1 ${metrics.f1.toFixed(3)} ` +
            `(erroneous ${metrics.errorAccuracy.toFixed(3)} of ${metrics.erroneous}, correct ${metrics.correctAccuracy.toFixed(3)} of ${metrics.correct}, threshold ${metrics.threshold})`,
        );
        return;
      }
      case 'checkpoint':
        line(`checkpoint ${event.folder}`);
        return;
      case 'done':
        line(
          event.stopped === 'completed'
            ? `done: step ${event.step}, model in ${event.folder}`
            : `stopped (${event.stopped}) at step ${event.step}; resume with --resume (checkpoint in ${event.folder})`,
        );
    }
  };
}
