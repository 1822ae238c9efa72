import type { StepCalibration } from '@reward-lens/core';
import { simulateBestOfN, simulateMcLabels, type PrmBenchRun, type ProcessBenchEvaluation, type ReportData } from '@reward-lens/eval';

export interface EvalReportInput {
  model: string;
  data: string;
  failures: number;
  notes: readonly string[];
  processBench?: ProcessBenchEvaluation;
  prmBench?: PrmBenchRun;
  calibration?: StepCalibration;
}

/** What `eval --report` shows: the evaluation's figures, then the toy experiments (seed 0) for reference. */
export function evalReportData(input: EvalReportInput): ReportData {
  const summary = [
    { label: 'model', value: input.model },
    { label: 'data', value: input.data },
  ];
  if (input.processBench)
    summary.push({ label: 'threshold', value: `${input.processBench.threshold.value.toFixed(4)} (${input.processBench.threshold.source})` });
  if (input.prmBench) summary.push({ label: 'threshold', value: `${input.prmBench.threshold.value.toFixed(4)} (${input.prmBench.threshold.source})` });
  if (input.failures > 0) summary.push({ label: 'not scored', value: `${input.failures} solution(s)` });
  const data: ReportData = {
    title: `reward-lens eval: ${input.data}`,
    summary,
    notes: [
      ...input.notes,
      'The toy experiments at the end are simulations (seed 0), independent of the model: they show what MC labels and aggregation rules do where the truth is known.',
    ],
    simulations: { seed: 0, mcLabels: simulateMcLabels({ seed: 0 }), bestOfN: simulateBestOfN({ seed: 0 }) },
  };
  if (input.processBench) data.processBench = input.processBench;
  if (input.prmBench) data.prmBench = input.prmBench;
  if (input.calibration) {
    data.calibration = { fitted: input.calibration, ...(input.processBench?.reliability.after ? { heldOut: input.processBench.reliability.after } : {}) };
  }
  return data;
}
