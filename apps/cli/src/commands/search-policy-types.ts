import type { StepPolicy } from '@reward-lens/search';

/** How the policy samples, from the command line. */
export interface PolicySettings {
  temperature: number;
  topP: number;
  maxStepTokens: number;
  maxSolutionTokens: number;
  /** The policy model's backend (a local model). */
  backend: string;
  /** CPU threads a local policy model computes on (absent: every core). */
  threads?: number;
  /** The prompt, with `{problem}` and `{steps}` (each step followed by the delimiter). */
  template: string;
  /** What ends a step. */
  delimiter: string;
  /** For a URL: the served model's name (default: the first the server lists), key, streaming, limits. */
  modelName?: string;
  apiKey?: string;
  stream: boolean;
  timeoutMs: number;
  concurrency: number;
  retries: number;
}

export interface LoadedPolicy {
  policy: StepPolicy;
  description: string;
  dispose(): Promise<void>;
}
