// Node-only parts of @reward-lens/eval: reading benchmark files and writing the HTML report.
export { readProcessBenchFile } from './node/read-processbench-file.js';
export { readPrmBenchFile } from './node/read-prmbench-file.js';
export { chooseEvaluationThreshold, type EvaluationThreshold, type EvaluationThresholdOptions } from './node/choose-evaluation-threshold.js';
export { loadPlotLibrary, writeInspectPage, writeReport } from './node/plot-library.js';
