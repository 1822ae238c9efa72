import { organismDecoderConfig } from '@reward-lens/organism';
import { defaultRecipe, type DefaultRecipe } from '../default-recipe.js';
import type { DataMix } from './arm-records.js';
import { ablationBudget } from './budget.js';

/** One variant of the recipe's first stage, trained from scratch at the ablation budget. */
export interface Arm {
  name: string;
  /** What it changes against the baseline. */
  change: string;
  recipe: DefaultRecipe;
  mix: DataMix;
  /** How the trained model is read when measured (default: the recipe it was trained with, as its config.json says). */
  reading?: string;
}

const size = { hiddenSize: 128, numLayers: 4, numHeads: 4, intermediateSize: 384 };

/** The recipe's first stage (no continuation), at the ablation's steps and scaled curriculum. */
export const baselineRecipe: DefaultRecipe = {
  ...defaultRecipe,
  steps: ablationBudget.steps,
  batchTokens: ablationBudget.batchTokens,
  curriculumItems: ablationBudget.curriculumItems,
  continuations: [],
};

const withLayers = (numLayers: number): DefaultRecipe => ({ ...baselineRecipe, config: organismDecoderConfig({ ...size, numLayers }) });
const withLanguageModelWeight = (languageModelWeight: number): DefaultRecipe => ({ ...baselineRecipe, languageModelWeight });

/** The arms in the order they are run; each changes one thing against `baseline`. */
export const arms: readonly Arm[] = [
  { name: 'baseline', change: 'none: 4 layers, lr 2e-3, warm-up 100, LM weight 1, token labels, curriculum', recipe: baselineRecipe, mix: 'default' },
  { name: 'layers-6', change: '6 layers', recipe: withLayers(6), mix: 'default' },
  { name: 'layers-8', change: '8 layers', recipe: withLayers(8), mix: 'default' },
  {
    name: 'arithmetic-mix',
    change: 'every other record from an organism injecting only wrong-result, wrong-copy, compensating',
    recipe: baselineRecipe,
    mix: 'arithmetic',
  },
  {
    name: 'paired',
    change: 'matched pairs: each flawed solution followed by its clean twin (plus 1 compensating item per 5 pairs)',
    recipe: baselineRecipe,
    mix: 'paired',
  },
  { name: 'lm-0.3', change: 'languageModelWeight 0.3', recipe: withLanguageModelWeight(0.3), mix: 'default' },
  { name: 'lm-3', change: 'languageModelWeight 3', recipe: withLanguageModelWeight(3), mix: 'default' },
  // Not a lever: the baseline again with seed 1 (initialisation, curriculum and stream), to see how far two runs of one recipe differ.
  { name: 'baseline-seed1', change: 'none, seed 1 instead of 0 (the run-to-run spread)', recipe: { ...baselineRecipe, seed: 1 }, mix: 'default' },
];

export function armNamed(name: string): Arm {
  const arm = arms.find((candidate) => candidate.name === name);
  if (arm === undefined) throw new Error(`no arm "${name}"; the arms are ${arms.map((candidate) => candidate.name).join(', ')}`);
  return arm;
}
