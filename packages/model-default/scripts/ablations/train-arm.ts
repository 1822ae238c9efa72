import { organismTokenizerJson } from '@reward-lens/organism';
import { streamSource, trainProcessRewardModel, type TrainerState, type TrainingEvent } from '@reward-lens/train';
import { organismRecord, splitItems } from '../default-recipe.js';
import { armRecords } from './arm-records.js';
import type { Arm } from './arms.js';
import { ablationBudget } from './budget.js';

/** One line per event worth keeping in a log file: a step every 10, evaluations, checkpoints, the end. */
export function logLines(write: (line: string) => void): (event: TrainingEvent) => void {
  return (event) => {
    const time = new Date().toISOString().slice(11, 19);
    if (event.kind === 'start')
      write(`${time} start at step ${event.step}/${event.totalSteps}, ${event.parameters} parameters, resumed from ${event.resumedFrom ?? 'nothing'}`);
    else if (event.kind === 'step' && (event.step % 10 === 0 || event.step === event.totalSteps)) {
      const lm = event.languageModelLoss !== undefined ? ` lm ${event.languageModelLoss.toFixed(3)}` : '';
      write(
        `${time} step ${event.step} loss ${event.loss.toFixed(4)}${lm} lr ${event.learningRate.toExponential(2)} grad ${event.gradientNorm.toFixed(2)} ${Math.round(event.tokensPerSecond)} tok/s eta ${Math.round(event.etaSeconds)}s`,
      );
    } else if (event.kind === 'evaluation') {
      const { metrics } = event;
      write(
        `${time} held-out at step ${event.step}: loss ${metrics.loss.toFixed(4)} F1@0.5 ${metrics.f1.toFixed(3)} (erroneous ${metrics.errorAccuracy.toFixed(3)}, correct ${metrics.correctAccuracy.toFixed(3)})`,
      );
    } else if (event.kind === 'checkpoint') write(`${time} checkpoint ${event.folder}`);
    else if (event.kind === 'done') write(`${time} done (${event.stopped}) at step ${event.step}: ${event.folder}`);
  };
}

/**
 * Trains an arm from scratch into `folder`, resuming from its last checkpoint when there is one
 * (a resumed run ends with the uninterrupted run's weights). Throws when stopped by `signal`.
 */
export async function trainArm(arm: Arm, folder: string, signal: AbortSignal, write: (line: string) => void): Promise<TrainerState> {
  const { recipe } = arm;
  const { tokenizerJson, tokenizerConfig } = organismTokenizerJson();
  const heldOut = splitItems(recipe, 'heldOut', recipe.heldOutItems).map((item) => organismRecord(item, item.id));
  const result = await trainProcessRewardModel({
    data: streamSource(() => armRecords(recipe, arm.mix), `ablation arm ${arm.name}: ${recipe.curriculumItems} curriculum items, then the ${arm.mix} mix`),
    heldOut,
    heldOutDescription: `${heldOut.length} organism items of seed 1000, with prefix step labels`,
    out: folder,
    init: { kind: 'scratch', config: recipe.config, tokenizerJson, tokenizerConfig },
    steps: recipe.steps,
    batchTokens: recipe.batchTokens,
    learningRate: recipe.learningRate,
    warmupSteps: recipe.warmupSteps,
    languageModelWeight: recipe.languageModelWeight,
    untilFirstError: false,
    seed: recipe.seed,
    evaluateEvery: ablationBudget.evaluateEvery,
    checkpointEvery: ablationBudget.checkpointEvery,
    resume: true,
    signal,
    title: `reward-lens ablation arm ${arm.name} (${arm.change})`,
    onEvent: logLines(write),
  });
  if (result.stopped !== 'completed')
    throw new Error(`stopped (${result.stopped}) at step ${result.step} of ${recipe.steps}; the same command continues from ${result.folder}`);
  return result.state;
}
