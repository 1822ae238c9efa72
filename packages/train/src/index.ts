// The public API of @reward-lens/train, by name.
export { trainProcessRewardModel, type ModelInit, type TrainOptions, type TrainResult } from './trainer.js';
export { checkStepRecord, firstErrorStep, trainingTargets, type LabelPolicy, type StepRecord } from './data/step-record.js';
export { fromProcessBench, fromTrl, parseRecordsText, parseStepRecord, type AfterErrorLabel, type ParseOptions } from './data/parse-records.js';
export { recordsSource, streamSource, type RecordSource } from './data/record-source.js';
export { splitHeldOut } from './data/split-held-out.js';
export { readRecordsFile, readTrainingSplit, type TrainingSplit, type TrainingSplitOptions } from './data/read-records-file.js';
export { stepCrossEntropy, type StepLoss } from './loss/step-cross-entropy.js';
export { AdamW, clipGradientNorm, type AdamWOptions, type AdamWState } from './optim/adamw.js';
export { learningRateAt, type LearningRateSchedule } from './optim/learning-rate.js';
export { predictFirstError, processBenchF1, type ProcessBenchMetrics } from './evaluation/processbench-f1.js';
export type { HeldOutMetrics } from './evaluation/evaluate-held-out.js';
export { initializeDecoder, type InitializationOptions } from './model/initialize-decoder.js';
export { growDecoder, grownLayerSources } from './model/grow-decoder.js';
export { readScratchInit, type ScratchInitFiles } from './model/scratch-init.js';
export { listCheckpoints, readCheckpoint, type Checkpoint } from './checkpoint/checkpoint-folder.js';
export type { EvaluationRecord, TrainerState } from './checkpoint/trainer-state.js';
export { createProgressBar, formatDuration, type ProgressStream } from './progress/progress-bar.js';
export type { TrainingEvent } from './progress/training-event.js';
export {
  trainStepDetector,
  type DetectorTrainingEvent,
  type TrainStepDetectorOptions,
  type TrainStepDetectorResult,
} from './step-detector/train-step-detector.js';
export { boundaryTokenLabels, detectorExamples, type DetectorExample } from './step-detector/detector-examples.js';
export { boundaryEnds, boundaryMetrics, type BoundaryMetrics } from './step-detector/boundary-metrics.js';
