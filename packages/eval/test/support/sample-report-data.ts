import type { Evidence, StepScores } from '@reward-lens/core';
import { fitStepCalibration } from '../../src/calibration/fit-calibration.js';
import { evaluatePrmBench } from '../../src/evaluate/evaluate-prmbench.js';
import { ProcessBenchEvaluator } from '../../src/evaluate/processbench-evaluation.js';
import type { StepScorer } from '../../src/evaluate/step-scorer.js';
import { chooseThreshold, type ScoredItem } from '../../src/processbench/choose-threshold.js';
import type { PrmBenchRecord } from '../../src/prmbench/prmbench-item.js';
import { createSeededRandom } from '../../src/random/seeded-random.js';
import type { ReportData } from '../../src/report/report-data.js';
import { simulateBestOfN } from '../../src/simulate/best-of-n-toy.js';
import { simulateMcLabels } from '../../src/simulate/mc-labels.js';

const sigmoid = (logit: number) => 1 / (1 + Math.exp(-logit));

/** A scorer that knows the truth a little: a step scores high before the labelled error, low from it on, plus noise. */
function noisyItem(
  random: ReturnType<typeof createSeededRandom>,
  id: string,
  problem: string,
  length: number,
  label: number,
): ScoredItem & { finalAnswerCorrect: boolean; stepScores: number[] } {
  const stepScores = Array.from({ length }, (_, step) => sigmoid((label === -1 || step < label ? 1.5 : -0.5) + 1.2 * random.gaussian()));
  return { id, problem, steps: stepScores.map((_, step) => `${id} step ${step}`), label, stepScores, finalAnswerCorrect: label === -1 || random.next() < 0.2 };
}

/** A textual scorer for PRMBench: deterministic, slightly lower on longer steps. */
const textScorer: StepScorer = {
  async stepScores(inputs) {
    const curves = inputs.map((input) => Float32Array.from(input.steps, (step) => sigmoid(1 - step.length / 300 + ((step.charCodeAt(0) % 7) - 3) / 4)));
    const value: StepScores = { stepCounts: curves.map((curve) => curve.length), curves, steps: [], meta: [], errors: inputs.map(() => null) };
    return { value, gauge: 'PROBABILITY', trust: 'EXPLORATORY', notes: [] } satisfies Evidence<StepScores>;
  },
};

/** Report data with every section filled, for rendering tests: synthetic scores, real PRMBench records when given. */
export async function sampleReportData(prmBenchRecords: readonly PrmBenchRecord[] = []): Promise<ReportData> {
  const random = createSeededRandom(5);
  const items = (offset: number, count: number) =>
    Array.from({ length: count }, (_, index) => {
      const length = 3 + ((index + offset) % 6);
      const label = (index + offset) % 3 === 0 ? -1 : (index + offset) % length;
      // Problems repeat in threes, so best-of-N has pools of 3.
      return noisyItem(random, `item-${offset + index}`, `problem ${Math.floor((offset + index) / 3)}`, length, label);
    });
  const calibrationItems = items(0, 90);
  const threshold = chooseThreshold(calibrationItems, { name: 'synthetic calibration split' });
  const calibration = fitStepCalibration(
    calibrationItems.flatMap((item) =>
      item.stepScores
        .slice(0, item.label === -1 ? undefined : item.label + 1)
        .map((score, step) => ({ score: Number(score), label: (step === item.label ? 0 : 1) as 0 | 1 })),
    ),
    { method: 'isotonic', set: { name: 'synthetic calibration split', domain: 'synthetic scores', items: 90 } },
  );
  const evaluator = new ProcessBenchEvaluator({ threshold, calibration });
  for (const item of items(90, 300)) evaluator.add(item, { gauge: 'PROBABILITY' });
  const evaluation = evaluator.result();
  const data: ReportData = {
    title: 'reward-lens evaluation: sample report',
    summary: [
      { label: 'model', value: 'synthetic scorer' },
      { label: 'data', value: '300 synthetic items' },
    ],
    notes: ['synthetic data for the rendering test'],
    processBench: evaluation,
    calibration: { fitted: calibration, ...(evaluation.reliability.after ? { heldOut: evaluation.reliability.after } : {}) },
    simulations: { seed: 0, mcLabels: simulateMcLabels({ seed: 0, solutions: 500 }), bestOfN: simulateBestOfN({ seed: 0, problems: 300 }) },
  };
  if (prmBenchRecords.length > 0)
    data.prmBench = await evaluatePrmBench(textScorer, prmBenchRecords, { threshold: { value: 0.5, source: { kind: 'fixed', reason: 'PRMBench default' } } });
  return data;
}
