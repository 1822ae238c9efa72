import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { InvalidInputError, recipeGauge, type ProcessRM, type StepCalibration } from '@reward-lens/core';
import { fitStepCalibration } from '../calibration/fit-calibration.js';
import { labelledStepsOf } from '../calibration/labelled-step.js';
import { scoreCalibrationSplit } from '../evaluate/evaluate-processbench.js';
import { chooseThreshold, fixedThreshold, type ChosenThreshold } from '../processbench/choose-threshold.js';
import { readProcessBenchFile } from './read-processbench-file.js';

/** Where an evaluation's threshold comes from: a calibration split (a file), a fixed value, or neither (the default). */
export interface EvaluationThresholdOptions {
  /** A ProcessBench-format split to choose the threshold on and fit a step calibration to (saved as JSON at `save`). */
  calibration?: { path: string; method: 'platt' | 'isotonic'; domain: string; save?: string };
  /** A fixed threshold (not with `calibration`), and the reason reported beside it (default: "given"). */
  threshold?: number;
  thresholdReason?: string;
  batchSize?: number;
}

/** The threshold an evaluation runs with, the calibration fitted on the way, and what the notes must say. */
export interface EvaluationThreshold {
  threshold: ChosenThreshold;
  calibration?: StepCalibration;
  notes: string[];
}

/**
 * The threshold of an evaluation run, as `reward-lens eval` chooses it: chosen on the calibration
 * split (with a step calibration fitted to it), or the fixed value, or the default for the
 * recipe's gauge (0.5 for probabilities, 0 for a raw value head), each with its reason.
 */
export async function chooseEvaluationThreshold(prm: ProcessRM, options: EvaluationThresholdOptions): Promise<EvaluationThreshold> {
  if (options.calibration !== undefined && options.threshold !== undefined)
    throw new InvalidInputError('give either a calibration split (the threshold is chosen there) or a fixed threshold, not both');
  const reading = recipeGauge(prm.recipe) === 'PROBABILITY' ? 'probability' : 'sigmoid';
  if (options.calibration) {
    const { path, method, domain, save } = options.calibration;
    const scored = await scoreCalibrationSplit(prm, await readProcessBenchFile(path), options.batchSize !== undefined ? { batchSize: options.batchSize } : {});
    if (scored.items.length === 0) throw new InvalidInputError('no solution of the calibration split could be scored', { location: path });
    const name = basename(path);
    const threshold = chooseThreshold(scored.items, { name });
    const calibration = fitStepCalibration(labelledStepsOf(scored.items), { method, reading, set: { name, domain, items: scored.items.length } });
    if (save !== undefined) await writeFile(save, `${JSON.stringify(calibration, null, 2)}\n`);
    const notes = scored.failures.length > 0 ? [`${scored.failures.length} solution(s) of the calibration split could not be scored and were left out`] : [];
    return { threshold, calibration, notes };
  }
  if (options.threshold !== undefined) return { threshold: fixedThreshold(options.threshold, options.thresholdReason ?? 'given'), notes: [] };
  const reason =
    reading === 'probability'
      ? 'the default 0.5 for probability scores; a calibration split chooses one'
      : 'the default 0 for a raw value head (sigmoid 0.5); a calibration split chooses one';
  return { threshold: fixedThreshold(reading === 'probability' ? 0.5 : 0, reason), notes: [] };
}
