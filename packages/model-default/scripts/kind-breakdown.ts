import type { ProcessRM } from '@reward-lens/core';
import { auroc, evaluateProcessBench, processBenchFromArray, type ChosenThreshold, type ProcessBenchEvaluation } from '@reward-lens/eval';
import { errorKinds, toProcessBench, type ErrorKind, type OrganismItem } from '@reward-lens/organism';

/** Where an erroneous item's first flagged step falls, against its labelled first error. */
export interface KindFigures {
  items: number;
  exact: number;
  early: number;
  late: number;
  missed: number;
  /** exact / items: ProcessBench's erroneous accuracy on this kind. */
  exactRate: number;
  /**
   * Threshold-free: AUROC of the split's correct steps (those before each label, and every step of a
   * correct solution) against this kind's first erroneous steps.
   */
  auroc: number;
}

export interface TestBreakdown {
  evaluation: ProcessBenchEvaluation;
  /** Per injected error kind (`OrganismItem.errorKind`). */
  byKind: Record<string, KindFigures>;
}

/** ProcessBench's metric on a split at a threshold chosen elsewhere, with the erroneous items broken down by error kind. */
export async function evaluateByKind(prm: ProcessRM, items: readonly OrganismItem[], threshold: ChosenThreshold): Promise<TestBreakdown> {
  const kindOf = new Map(items.map((item) => [item.id, item.errorKind]));
  const byKind: Record<string, KindFigures> = Object.fromEntries(
    errorKinds.map((kind) => [kind, { items: 0, exact: 0, early: 0, late: 0, missed: 0, exactRate: Number.NaN, auroc: Number.NaN }]),
  );
  const correctSteps: number[] = [];
  const firstErrors = new Map(errorKinds.map((kind) => [kind, [] as number[]]));
  const run = await evaluateProcessBench(prm, processBenchFromArray(items.map((item) => toProcessBench(item))), {
    threshold,
    onItem: (prediction) => {
      const kind = kindOf.get(prediction.id);
      if (kind === undefined) throw new Error(`scored an item that is not in the split: ${prediction.id}`);
      const { label, stepScores } = prediction;
      correctSteps.push(...stepScores.slice(0, label === -1 ? stepScores.length : label));
      if (kind === null) return;
      firstErrors.get(kind)!.push(stepScores[label]!);
      const figures = byKind[kind]!;
      figures.items++;
      if (prediction.prediction === prediction.label) figures.exact++;
      else if (prediction.prediction === -1) figures.missed++;
      else if (prediction.prediction < prediction.label) figures.early++;
      else figures.late++;
    },
  });
  if (run.failureCount > 0) throw new Error(`${run.failureCount} test items could not be scored: ${run.failures[0]?.message}`);
  for (const [kind, figures] of Object.entries(byKind)) {
    figures.exactRate = figures.items === 0 ? Number.NaN : figures.exact / figures.items;
    figures.auroc = auroc(correctSteps, firstErrors.get(kind as ErrorKind)!);
  }
  return { evaluation: run.evaluation, byKind };
}
