import type { BackendV1 } from '@reward-lens/spec';
import type { PrmTokenizer } from '@reward-lens/tokenizers';
import { generate, type GenerateOptions, type Generation } from './generate.js';

/** A policy that continues prompts: what step-level search and Monte-Carlo labelling call. */
export interface TextGenerator {
  generate(prompts: readonly string[], options?: Partial<GenerateOptions>): Promise<Generation[]>;
}

/** A generator over a backend's LM head, with default options per call. */
export function createTextGenerator(backend: BackendV1, tokenizer: PrmTokenizer, defaults: GenerateOptions): TextGenerator {
  return {
    generate: (prompts, options = {}) => generate(backend, tokenizer, prompts, { ...defaults, ...options }),
  };
}
