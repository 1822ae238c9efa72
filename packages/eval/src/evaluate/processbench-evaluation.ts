import { applyStepCalibration, type Gauge, type StepCalibration, type Trust } from '@reward-lens/core';
import { readAsProbability, type ScoreReading } from '../calibration/fit-calibration.js';
import type { LabelledStep } from '../calibration/labelled-step.js';
import { ReliabilityTally, type Reliability } from '../calibration/reliability.js';
import { ReservoirSample } from '../calibration/reservoir-sample.js';
import { bestOfNCurves, type BestOfNCandidate, type BestOfNCurves } from '../diagnostics/best-of-n.js';
import { OutcomeDriftTally, type OutcomeDrift } from '../diagnostics/outcome-drift.js';
import { CalibrationLeakError } from '../errors/calibration-leak-error.js';
import { AurocTally, type AurocResult } from '../metrics/auroc.js';
import type { ChosenThreshold, ScoredItem } from '../processbench/choose-threshold.js';
import { firstBelow } from '../processbench/first-below.js';
import { itemFingerprint } from '../processbench/item-fingerprint.js';
import { ProcessBenchTally, type ProcessBenchMetrics } from '../processbench/processbench-tally.js';

/** One scored item, as `--predictions` writes it. */
export interface ItemPrediction {
  id: string;
  label: number;
  prediction: number;
  stepScores: number[];
}

export interface ProcessBenchEvaluationOptions {
  /** Chosen on a calibration split (`chooseThreshold`) or declared fixed (`fixedThreshold`); never a bare number. */
  threshold: ChosenThreshold;
  /** How raw scores read as probabilities for the reliability diagram. Default: `probability` for a PROBABILITY gauge, else `sigmoid`. */
  reading?: ScoreReading;
  /** A calibration fitted elsewhere: its reliability on this split is measured too. */
  calibration?: StepCalibration;
  /** Items whose step curves are kept for the report. Default 24. */
  curvesKept?: number;
  /** Labelled steps kept (a uniform sample) for fitting a calibration afterwards. Default 20,000. */
  labelledStepSample?: number;
  /** Scores kept exactly for AUROC before it goes on in bins. Default 2,000,000. */
  aurocExactLimit?: number;
  /** Candidates kept for best-of-N over problems that appear more than once. Default 20,000. */
  bestOfNLimit?: number;
}

export interface ProcessBenchEvaluation {
  items: number;
  threshold: { value: number; source: string; chosenOn?: { name: string; items: number; f1: number } };
  metrics: ProcessBenchMetrics;
  /** Threshold-free: correct steps (before the label, or all of a correct solution) against first-erroneous steps. */
  auroc: AurocResult;
  drift: OutcomeDrift;
  reliability: { reading: ScoreReading; before: Reliability; after?: Reliability };
  curves: (ItemPrediction & { problem: string })[];
  /** Over problems with more than one solution: final answer right, and right with no erroneous step. */
  bestOfN?: BestOfNCurves & { problems: number };
  gauge?: Gauge;
  trust?: Trust;
  notes: string[];
}

function thresholdSummary(threshold: ChosenThreshold): ProcessBenchEvaluation['threshold'] {
  if (threshold.source.kind === 'fixed') return { value: threshold.value, source: `fixed: ${threshold.source.reason}` };
  const { name, items, f1 } = threshold.source;
  return { value: threshold.value, source: `chosen on "${name}" (${items} items) for the best F1 there`, chosenOn: { name, items, f1 } };
}

/**
 * Accumulates a ProcessBench-format evaluation one scored item at a time, in memory bounded by its
 * options (not by the input's length). Refuses (`CalibrationLeakError`) an item the threshold was
 * chosen on.
 */
export class ProcessBenchEvaluator {
  readonly labelledSteps: ReservoirSample<LabelledStep>;
  private readonly tally = new ProcessBenchTally();
  private readonly aurocTally: AurocTally;
  private readonly drift = new OutcomeDriftTally();
  private readonly before = new ReliabilityTally();
  private readonly after: ReliabilityTally | undefined;
  private readonly curves: ProcessBenchEvaluation['curves'] = [];
  private readonly groups = new Map<string, BestOfNCandidate[]>();
  private readonly forbidden: Set<string> | undefined;
  private candidatesKept = 0;
  private count = 0;
  private reading: ScoreReading | undefined;
  private gauge: Gauge | undefined;
  private trust: Trust | undefined;
  private readonly notes = new Set<string>();
  private pairNotes = 0;

  constructor(private readonly options: ProcessBenchEvaluationOptions) {
    this.aurocTally = new AurocTally({ exactLimit: options.aurocExactLimit ?? 2_000_000 });
    this.labelledSteps = new ReservoirSample(options.labelledStepSample ?? 20_000);
    this.after = options.calibration ? new ReliabilityTally() : undefined;
    this.reading = options.reading;
    const source = options.threshold.source;
    this.forbidden = source.kind === 'calibration' ? new Set(source.fingerprints) : undefined;
  }

  /** Adds one item; returns its prediction. `finalAnswerCorrect` enables best-of-N over repeated problems. */
  add(item: ScoredItem & { finalAnswerCorrect?: boolean }, evidence: { gauge?: Gauge; trust?: Trust; notes?: readonly string[] } = {}): ItemPrediction {
    const fingerprint = itemFingerprint(item.problem, item.steps);
    if (this.forbidden?.has(fingerprint)) {
      const source = this.options.threshold.source as { name: string };
      throw new CalibrationLeakError(
        `item "${item.id}" is also in the calibration split "${source.name}" the threshold was chosen on: score a split disjoint from it`,
      );
    }
    this.gauge ??= evidence.gauge;
    this.trust ??= evidence.trust;
    for (const note of evidence.notes ?? []) {
      // Notes about one solution of a batch ("pair 3: truncated ...") are counted, not listed.
      if (/^pair \d+: /.test(note)) this.pairNotes++;
      else if (this.notes.size < 20) this.notes.add(note);
    }
    this.reading ??= evidence.gauge === 'PROBABILITY' ? 'probability' : 'sigmoid';
    const scores = item.stepScores;
    const prediction = firstBelow(scores, this.options.threshold.value);
    this.tally.add(item.label, prediction);
    this.drift.add(scores, item.label);
    const lastLabelled = item.label === -1 ? scores.length - 1 : item.label;
    for (let step = 0; step <= lastLabelled; step++) {
      const score = scores[step]!;
      const label: 0 | 1 = step === item.label ? 0 : 1;
      this.aurocTally.add(score, label === 1);
      this.before.add(readAsProbability(score, this.reading), label);
      if (this.after && this.options.calibration) this.after.add(applyStepCalibration(this.options.calibration.map, score), label);
      if (!Number.isNaN(score)) this.labelledSteps.add({ score, label });
    }
    const stepScores = Array.from(scores);
    const result: ItemPrediction = { id: item.id, label: item.label, prediction, stepScores };
    if (this.curves.length < (this.options.curvesKept ?? 24)) this.curves.push({ ...result, problem: item.problem });
    if (item.finalAnswerCorrect !== undefined && this.candidatesKept < (this.options.bestOfNLimit ?? 20_000)) {
      const key = itemFingerprint(item.problem, []);
      const group = this.groups.get(key) ?? [];
      this.groups.set(key, group);
      group.push({
        stepScores: Float32Array.from(scores),
        finalCorrect: item.finalAnswerCorrect,
        processCorrect: item.finalAnswerCorrect && item.label === -1,
      });
      this.candidatesKept++;
    }
    this.count++;
    return result;
  }

  result(): ProcessBenchEvaluation {
    const evaluation: ProcessBenchEvaluation = {
      items: this.count,
      threshold: thresholdSummary(this.options.threshold),
      metrics: this.tally.metrics(),
      auroc: this.aurocTally.result(),
      drift: this.drift.result(),
      reliability: { reading: this.reading ?? 'probability', before: this.before.result() },
      curves: this.curves,
      notes: [...this.notes],
    };
    if (this.pairNotes > 0) {
      evaluation.notes.push(
        `${this.pairNotes} note(s) about single solutions (truncation, step detection) were counted, not listed: score one solution with \`reward-lens score\` to see its notes; an unscored step is NaN (null in --predictions)`,
      );
    }
    if (this.after) evaluation.reliability.after = this.after.result();
    if (this.gauge) evaluation.gauge = this.gauge;
    if (this.trust) evaluation.trust = this.trust;
    const repeated = [...this.groups.values()].filter((group) => group.length > 1);
    if (repeated.length > 0) {
      const smallest = Math.min(...repeated.map((group) => group.length));
      const largest = Math.max(...repeated.map((group) => group.length));
      // Every problem contributes at each N up to its smallest pool; the curve runs to the smallest.
      evaluation.bestOfN = {
        ...bestOfNCurves(
          repeated.map((candidates) => ({ candidates })),
          { resamples: 16 },
        ),
        problems: repeated.length,
      };
      if (largest > smallest)
        evaluation.notes.push(`best-of-N over ${repeated.length} problems with ${smallest} to ${largest} solutions each, up to N = ${smallest}`);
    }
    if (this.candidatesKept >= (this.options.bestOfNLimit ?? 20_000)) evaluation.notes.push(`best-of-N uses the first ${this.candidatesKept} items only`);
    if (evaluation.auroc.binned)
      evaluation.notes.push(`AUROC went on in ${evaluation.auroc.binned.bins} bins past ${this.options.aurocExactLimit ?? 2_000_000} scores`);
    return evaluation;
  }
}
