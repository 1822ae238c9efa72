// The public API of @reward-lens/organism, by name.
export { createOrganism, type MatchedPair, type Organism, type OrganismItem } from './organism.js';
export {
  defaultOrganismOptions,
  errorKinds,
  resolveOrganismOptions,
  singleErrorKinds,
  type ErrorKind,
  type OrganismOptions,
  type ResolvedOrganismOptions,
} from './options.js';
export { applyOperation, operations, parseOperationName, type Operation } from './operations.js';
export { answerOf, chainValues, parseProblem, type ProblemDistractor, type ProblemOperation, type ProblemStructure } from './problem.js';
export { parseStep, type ParsedStep } from './step-grammar.js';
export { verifySolution, type SolutionProgress, type StepJudgement, type StepVerdict, type Verification } from './verify-solution.js';
export {
  createOrganismPolicy,
  policyErrorKinds,
  type OrganismPolicy,
  type OrganismPolicyOptions,
  type PolicyErrorKind,
  type PolicyRollout,
} from './policy.js';
export { policySuccessProbability } from './success-probability.js';
export {
  firstErrorOfLabels,
  organismGeneratorName,
  pairRecords,
  readProcessBenchRecord,
  readTrlRecord,
  toProcessBench,
  toTrl,
  type PairFields,
  type ProcessBenchRecord,
  type TrlLabelRule,
  type TrlPrmRecord,
} from './formats.js';
export {
  organismFormats,
  organismItemRecord,
  organismRecords,
  type OrganismFormat,
  type OrganismRecord,
  type OrganismRecordsOptions,
} from './organism-records.js';
export { organismTokenPattern, organismVocabulary, type OrganismVocabulary } from './vocabulary.js';
export { createOrganismTokenizer, organismSpecialTokens, type OrganismTokenizer } from './organism-tokenizer.js';
export { organismDecoderConfig, type OrganismModelSize } from './organism-decoder-config.js';
export { organismPieceRegex, organismTokenizerJson } from './organism-tokenizer-json.js';
export { createRandom, deriveSeed, type Random } from './random.js';
