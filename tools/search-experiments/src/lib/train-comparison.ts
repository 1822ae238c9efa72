import type { DecoderConfig } from '@reward-lens/core';
import { organismDecoderConfig, organismTokenizerJson, toProcessBench, type OrganismItem } from '@reward-lens/organism';
import { fromProcessBench, trainProcessRewardModel, type StepRecord, type TrainResult } from '@reward-lens/train';

/** A small Llama for the organism's tokenizer: what fits a few minutes of training on one core. */
export function smallOrganismConfig(size: { hiddenSize: number; numLayers: number; numHeads: number; intermediateSize: number }): {
  config: DecoderConfig;
  tokenizerJson: unknown;
  tokenizerConfig: unknown;
} {
  const { tokenizerJson, tokenizerConfig } = organismTokenizerJson();
  const config = organismDecoderConfig(size);
  return { config, tokenizerJson, tokenizerConfig };
}

/** An organism solution with its own step labels (1 = correct), as the trainer takes them. */
export function labelledRecord(item: Pick<OrganismItem, 'id' | 'problem' | 'steps'>, labels: readonly (boolean | number)[]): StepRecord {
  return { id: item.id, problem: item.problem, steps: [...item.steps], stepLabels: labels.map((label) => (label === true ? 1 : label === false ? 0 : label)) };
}

/** Held-out ProcessBench records of organism items, as `reward-lens eval` reads them. */
export function processBenchRecords(items: readonly OrganismItem[]): StepRecord[] {
  return items.map((item, index) => fromProcessBench(toProcessBench(item) as unknown as Record<string, unknown>, `held-out ${index}`));
}

export interface TrainBudget {
  steps: number;
  batchTokens: number;
  learningRate: number;
  seed: number;
  hiddenSize: number;
  numLayers: number;
  numHeads: number;
  intermediateSize: number;
}

/** Trains one PRM from scratch on the records, with the budget, evaluated on the held-out records (ProcessBench F1 at 0.5). */
export async function trainOnRecords(
  records: readonly StepRecord[],
  heldOut: readonly StepRecord[],
  out: string,
  budget: TrainBudget,
  title: string,
  onEvent?: Parameters<typeof trainProcessRewardModel>[0]['onEvent'],
): Promise<TrainResult> {
  const { config, tokenizerJson, tokenizerConfig } = smallOrganismConfig(budget);
  return trainProcessRewardModel({
    data: records,
    heldOut,
    heldOutDescription: `${heldOut.length} organism items from seeds the training data does not use`,
    out,
    init: { kind: 'scratch', config, tokenizerJson, tokenizerConfig },
    recipe: 'trl-token-classification',
    steps: budget.steps,
    batchTokens: budget.batchTokens,
    learningRate: budget.learningRate,
    seed: budget.seed,
    evaluateEvery: budget.steps,
    checkpointEvery: budget.steps,
    keepCheckpoints: 1,
    title,
    ...(onEvent ? { onEvent } : {}),
  });
}
