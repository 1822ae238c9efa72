import type { HeldOutMetrics } from '../evaluation/evaluate-held-out.js';

/** What a training run reports as it goes (to a progress bar, a log, a test). */
export type TrainingEvent =
  | {
      kind: 'start';
      step: number;
      totalSteps: number;
      parameters: number;
      resumedFrom: string | null;
      notes: string[];
      /** What runs it: backend-tiny's description (its kernels and threads). */
      backend: string;
    }
  | {
      kind: 'step';
      /** Steps completed. */
      step: number;
      totalSteps: number;
      loss: number;
      /** The auxiliary next-token loss, when the run has one. */
      languageModelLoss?: number;
      learningRate: number;
      gradientNorm: number;
      tokens: number;
      /** Over the steps of this session so far. */
      tokensPerSecond: number;
      etaSeconds: number;
      skipped: string[];
    }
  | { kind: 'evaluation'; step: number; metrics: HeldOutMetrics }
  | { kind: 'checkpoint'; step: number; folder: string }
  | { kind: 'done'; step: number; folder: string; stopped: 'completed' | 'aborted' | 'data-exhausted' };
