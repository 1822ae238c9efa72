import type { CharSpan } from '@reward-lens/tokenizers';

/** Which hidden states a step-boundary detector reads. */
export interface DetectionFeatureOptions {
  /** Hidden states read (0 = embeddings, k = after decoder layer k). */
  layers: readonly number[];
  /** 1: each token's features are its hidden state and the next token's. */
  lookahead: 0 | 1;
}

/** One solution's tokens and, per layer asked, their features: what a detector reads. */
export interface SolutionTokenFeatures {
  solution: string;
  /** Per token of the solution (in order), its characters in the solution. */
  tokenSpans: CharSpan[];
  /** Per layer asked (in order), `tokens × width` values, width = hidden size × (1 + lookahead). */
  features: Float32Array[];
  /** Width of a token's features. */
  width: number;
  /** Tokens of the laid-out pair that left truncation removed before the solution's first kept token (0 mostly). */
  truncatedTokens: number;
}
