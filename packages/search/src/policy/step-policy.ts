/**
 * How a proposal ended: `step` at the step delimiter, `eos` at the end of the sequence (the policy
 * has nothing more to say), `length` at a token limit.
 */
export type ProposalEnd = 'step' | 'eos' | 'length';

/** One candidate next step. */
export interface StepProposal {
  /** The step's text, trimmed; may be empty (a policy that emitted the delimiter at once). */
  text: string;
  /** Tokens the policy generated for it (counted, whether or not the step is kept). */
  tokens: number;
  end: ProposalEnd;
}

/** A completed continuation of a prefix, up to the policy's end. */
export interface Completion {
  steps: string[];
  tokens: number;
  end: ProposalEnd;
}

/** `count` continuations of one prefix. Sample `i` is drawn with seed `deriveSeed(seed, i)`, so the same request gives the same samples. */
export interface StepRequest {
  problem: string;
  steps: readonly string[];
  count: number;
  seed: number;
}

export interface PolicyCallOptions {
  signal?: AbortSignal;
}

/**
 * What search and Monte-Carlo labelling sample from: a policy that continues a problem's partial
 * solution. `nextSteps` gives one step per sample; `complete` (optional) runs each sample to the
 * end, which a policy can do in one call (a language model generating to EOS) where stepping
 * would cost a round trip per step. Without it, `completeSolutions` steps.
 *
 * Implementations here: `generatorPolicy` (any core `TextGenerator`: local language models, the
 * OpenAI-compatible client), `createScriptedPolicy` and `createChainPolicy` (tests, from
 * `@reward-lens/search/testing`). The organism's policy implements the same interface.
 */
export interface StepPolicy {
  readonly name: string;
  nextSteps(requests: readonly StepRequest[], options?: PolicyCallOptions): Promise<StepProposal[][]>;
  complete?(requests: readonly StepRequest[], options?: PolicyCallOptions & { maxSteps?: number }): Promise<Completion[][]>;
}
