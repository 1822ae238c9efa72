import type { StepPolicy } from './step-policy.js';

/** How a loaded policy samples and, for a completions server, how it is reached. */
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

/** A policy ready to search with: what it is, in words, and how to release what it holds. */
export interface LoadedPolicy {
  policy: StepPolicy;
  description: string;
  dispose(): Promise<void>;
}

/** The prompt a policy continues when no template is given: the problem, a blank line, the steps so far. */
export const defaultPolicyTemplate = '{problem}\n\n{steps}';

/** The settings `loadPolicy` takes when none are given (and `reward-lens search` without flags). */
export const defaultPolicySettings: Readonly<PolicySettings> = Object.freeze({
  temperature: 0.8,
  topP: 1,
  maxStepTokens: 256,
  maxSolutionTokens: 1024,
  backend: 'auto',
  template: defaultPolicyTemplate,
  delimiter: '\n',
  stream: false,
  timeoutMs: 60_000,
  concurrency: 8,
  retries: 4,
});
