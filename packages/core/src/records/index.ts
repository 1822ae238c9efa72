export { aggregateScoredSteps, type RecordAggregate } from './aggregate-scored-steps.js';
export { recordLabels, recordsFromEvidence, type RecordLabels, type StepScoreRecord } from './step-score-records.js';
