export { ProcessRM, type ProcessRMOptions, type ScoringOptions } from './process-rm.js';
export { ScoredPrefix } from './scored-prefix.js';
export type { OutcomeScores, PairErrors, PrefixScores, StepActivations, StepScores } from './process-rm-results.js';
export type { ScoringInput } from './scoring-input.js';
export type { PairMeta, TokenizedPair, TokenizedStep } from './tokenize-pair.js';
export type { TinyModelOptions } from './load-tiny.js';
export type { PretrainedOptions } from './load-pretrained.js';
export type { ScoreHvp, ScoreHvpOptions } from './score-hvp.js';
export type { IntegrationBaseline, IntegrationCheck, PairStepGradients, StepGradientOptions, StepGradients, StepTokenGradients } from './step-gradients.js';
