// The public API of @reward-lens/eval, by name. Browser-safe: reading files and writing reports live in `@reward-lens/eval/node`.
export { CalibrationLeakError } from './errors/calibration-leak-error.js';
export {
  parseProcessBenchItem,
  processBenchFromArray,
  processBenchFromJsonLines,
  processBenchRecord,
  type ProcessBenchItem,
  type ProcessBenchRecord,
} from './processbench/processbench-item.js';
export { firstBelow } from './processbench/first-below.js';
export { harmonicMean, ProcessBenchTally, type ProcessBenchConfusion, type ProcessBenchMetrics } from './processbench/processbench-tally.js';
export { chooseThreshold, fixedThreshold, type ChosenThreshold, type ScoredItem } from './processbench/choose-threshold.js';
export { itemFingerprint } from './processbench/item-fingerprint.js';
export { parsePrmBenchRecord, prmBenchSamples, type PrmBenchRecord, type PrmBenchSample } from './prmbench/prmbench-item.js';
export { PrmBenchTally, type PrmBenchMetrics, type PrmBenchTypeMetrics } from './prmbench/prmbench-tally.js';
export { auroc, AurocTally, type AurocResult } from './metrics/auroc.js';
export { wilsonInterval } from './metrics/wilson-interval.js';
export { labelledStepsOf, type LabelledStep } from './calibration/labelled-step.js';
export { fitPlatt } from './calibration/fit-platt.js';
export { fitIsotonic } from './calibration/fit-isotonic.js';
export { fitStepCalibration, readAsProbability, type FitCalibrationOptions, type ScoreReading } from './calibration/fit-calibration.js';
export { reliability, ReliabilityTally, type Reliability, type ReliabilityBin } from './calibration/reliability.js';
export { ReservoirSample } from './calibration/reservoir-sample.js';
export { OutcomeDriftTally, type OutcomeDrift } from './diagnostics/outcome-drift.js';
export { verificationIndex, type MatchedPair, type VerificationIndex } from './diagnostics/verification-index.js';
export {
  bestOfNCurves,
  type BestOfNCandidate,
  type BestOfNCurves,
  type BestOfNOptions,
  type BestOfNPoint,
  type BestOfNProblem,
} from './diagnostics/best-of-n.js';
export { scoreInBatches, type ScoredJob, type ScoringJob, type StepScorer } from './evaluate/step-scorer.js';
export {
  ProcessBenchEvaluator,
  type ItemPrediction,
  type ProcessBenchEvaluation,
  type ProcessBenchEvaluationOptions,
} from './evaluate/processbench-evaluation.js';
export {
  evaluateProcessBench,
  scoreCalibrationSplit,
  type EvaluateProcessBenchOptions,
  type ProcessBenchRun,
  type RecordFailure,
} from './evaluate/evaluate-processbench.js';
export { evaluatePrmBench, type PrmBenchRun } from './evaluate/evaluate-prmbench.js';
export { mcLabelsClosedForm, simulateMcLabels, type McLabelOptions, type McLabelRow } from './simulate/mc-labels.js';
export { simulateBestOfN, type BestOfNToyOptions, type BestOfNToyResult, type BestOfNToyRow } from './simulate/best-of-n-toy.js';
export { createSeededRandom, type SeededRandom } from './random/seeded-random.js';
export { renderReport } from './report/render-report.js';
export { readoutByLayer, readoutLayers, type LayerReadout } from './inspect/layer-readout.js';
export {
  labelledSteps,
  probeBattery,
  type LabelledSolution,
  type LayerProbeRow,
  type ProbeBattery,
  type ReadingFigures,
} from './inspect/correctness-probes.js';
export { attributeSteps, type AttributionOptions, type PairAttribution, type StepAttribution, type TokenAttribution } from './inspect/token-attribution.js';
export { inspectSolution, type InspectOptions } from './inspect/inspect-solution.js';
export type { InspectData } from './inspect/inspect-data.js';
export { renderInspectPage } from './inspect/render-inspect-page.js';
export type { PlotLibrary, ReportData } from './report/report-data.js';
