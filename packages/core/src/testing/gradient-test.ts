import type { BackendV1, DecoderModel } from '@reward-lens/spec';

export type GradientConformanceTestName =
  | 'flags and methods agree'
  | 'backward reads equal forward reads'
  | 'gradient matches finite differences'
  | 'gradient adds over rows and ignores padding'
  | 'input-embedding gradient is the embedding row gradient'
  | 'input embeddings replace the token embeddings'
  | 'integrated gradients add up'
  | 'rejects bad gradient requests'
  | 'hvp matches finite differences of the gradient'
  | 'hvp is symmetric'
  | 'hvp carries the loss curvature'
  | 'step gradients are causal'
  | 'score hvp';

/** Gradient tests not to run, each group with its reason (reported as skipped, with the reason). */

/** Defines one test of the suite: `flag` null runs always, else only on a backend declaring it (a skip with the reason otherwise). */
export type GradientTest = (
  name: GradientConformanceTestName,
  flag: 'GRADIENTS' | 'HVP' | null,
  model: DecoderModel,
  body: (backend: BackendV1) => Promise<void>,
) => void;
