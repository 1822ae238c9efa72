export { ProcessRM, type ProcessRMOptions } from './process-rm.js';
export { ScoredPrefix } from './scored-prefix.js';
export type { OutcomeScores, PrefixScores, StepActivations, StepScores } from './process-rm-results.js';
export type { ScoringInput } from './scoring-input.js';
export type { PairMeta, TokenizedPair, TokenizedStep } from './tokenize-pair.js';
export type { TinyModelOptions } from './load-tiny.js';
export type { PretrainedOptions } from './load-pretrained.js';
