import type { StepCalibration } from '@reward-lens/core';
import type { Reliability } from '../calibration/reliability.js';
import type { ProcessBenchEvaluation } from '../evaluate/processbench-evaluation.js';
import type { PrmBenchRun } from '../evaluate/evaluate-prmbench.js';
import type { BestOfNToyResult } from '../simulate/best-of-n-toy.js';
import type { McLabelRow } from '../simulate/mc-labels.js';

/** Everything a report shows; every part but the title is optional, and a figure is drawn only for what is there. */
export interface ReportData {
  title: string;
  /** Key facts shown first: model, data, threshold. */
  summary: { label: string; value: string }[];
  notes: string[];
  processBench?: ProcessBenchEvaluation;
  prmBench?: PrmBenchRun;
  /** A calibration fitted on a calibration split, with its reliability on the scored split. */
  calibration?: { fitted: StepCalibration; heldOut?: Reliability };
  simulations?: { seed: number; mcLabels?: McLabelRow[]; bestOfN?: BestOfNToyResult };
}

/** The plotting library inlined into the page (uPlot's IIFE build and stylesheet). */
export interface PlotLibrary {
  script: string;
  stylesheet: string;
}
