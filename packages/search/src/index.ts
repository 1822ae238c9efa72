// The public API of @reward-lens/search, by name. Browser-safe: Node-only pieces are in `./node`.
export { createAnswerChecker, defaultAnswerChecker, type AnswerChecker, type AnswerCheckerOptions, type AnswerContext } from './answers/answer-checker.js';
export { extractAnswer, type AnswerMethod, type ExtractedAnswer, type ExtractOptions } from './answers/extract-answer.js';
export { normalizeAnswer, type NormalizeOptions, type PercentMeaning } from './answers/normalize-answer.js';
export { completeSolutions, statesAnswer, type CompleteOptions } from './policy/complete-solutions.js';
export { deriveSeed, seedFromParts } from './policy/derive-seed.js';
export { generatorPolicy, stepLinesPrompt, type CountedGeneration, type GeneratorPolicyOptions } from './policy/generator-policy.js';
export type { Completion, PolicyCallOptions, ProposalEnd, StepPolicy, StepProposal, StepRequest } from './policy/step-policy.js';
// What loading a policy takes and gives (`loadPolicy` is on `./node`: a scripted policy is a file).
export { defaultPolicySettings, defaultPolicyTemplate, type LoadedPolicy, type PolicySettings } from './policy/policy-settings.js';
export { PolicySpecError } from './policy/policy-spec-error.js';
export { rerank, type RerankMethod, type RerankOptions, type RerankResult } from './rerank/rerank.js';
export { readRerankRecord, type RerankRecord } from './rerank/read-rerank-record.js';
export { rerankRecords, type Reranked } from './rerank/rerank-records.js';
export type { RecordError, RecordItem, RecordOutcome } from './records/record-item.js';
export { aggregateScored, scoreCandidates, type CandidateSolution, type ScoreCandidatesOptions, type ScoredCandidates } from './rerank/score-candidates.js';
export type { ScoredCandidate } from './rerank/scored-candidate.js';
export { bestOfN, majorityVote, weightedVote, type AnswerVote, type VoteResult } from './rerank/votes.js';
export { beamSearch } from './search/beam-search.js';
export { bestOfNSearch } from './search/best-of-n-search.js';
export { dvts } from './search/dvts.js';
export { meterBackend, type BackendMeter } from './search/meter-backend.js';
export { meterProcessRM } from './search/meter-process-rm.js';
export { search } from './search/search.js';
export { searchRecords, type Searched } from './search/search-records.js';
// A policy that proposes scripted steps (exact tests, and `reward-lens search --policy script:<file>`).
export { createScriptedPolicy, type ScriptedPolicy, type ScriptedPolicyOptions, type ScriptedStep } from './policy/scripted-policy.js';
export { solutionCandidates } from './search/finish-search.js';
export type { SearchCounts, SearchOptions, SearchResult, SearchSolution, SearchStrategy, SolutionEnd } from './search/search-types.js';
export { consensusFilter, prmJudge, type ConsensusResult, type StepJudge } from './labels/consensus.js';
export type { LabelInput, PrefixValue, PrefixValueStore, StepLabels } from './labels/label-types.js';
export { monteCarloLabels, type MonteCarloOptions } from './labels/monte-carlo-labels.js';
export { toTrlRecord, type TrlPrmRecord } from './labels/trl-record.js';
export { readLabelInput } from './labels/read-label-input.js';
export {
  labelJobs,
  recordSeed,
  type FailedLabelJob,
  type LabelJob,
  type LabelJobsOptions,
  type LabelJobsTotals,
  type LabelSink,
} from './labels/label-jobs.js';
export { createRecordLabeller, type LabelDetails, type LabelledRow, type LabelTally, type RecordLabellerOptions } from './labels/label-record.js';
export { denseRewards, rewardsAtCharacters, type DenseRewards, type DenseRewardsOptions } from './rewards/dense-rewards.js';
export {
  RewardHackingMonitor,
  type IterationSummary,
  type MonitorWarning,
  type MonitorWarningKind,
  type RewardHackingMonitorOptions,
  type RolloutObservation,
} from './rewards/reward-hacking-monitor.js';
