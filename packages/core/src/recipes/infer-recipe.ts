import { recipePresets } from './presets.js';
import type { ReadingRecipe } from './reading-recipe.js';

/**
 * The recipe a model's `config.json` (parsed) implies, when its architecture says how the model
 * is read as a PRM: `Qwen2ForProcessRewardModel`, any `*ForTokenClassification` (TRL's
 * PRMTrainer) or `*ForSequenceClassification`; `undefined` for a plain language model, which
 * needs a recipe named. `fromPretrained` and `reward-lens export onnx` both infer it this way.
 *
 * @example
 * inferRecipe({ architectures: ['Qwen2ForTokenClassification'] })?.name; // 'trl-token-classification'
 */
export function inferRecipe(config: unknown): ReadingRecipe | undefined {
  // A folder written by reward-lens's trainer names its recipe (`reward_lens.recipe`).
  const named = (config as { reward_lens?: { recipe?: unknown } } | null)?.reward_lens?.recipe;
  if (typeof named === 'string' && Object.hasOwn(recipePresets, named)) return recipePresets[named];
  const architectures = (config as { architectures?: unknown } | null)?.architectures;
  const architecture = Array.isArray(architectures) && typeof architectures[0] === 'string' ? architectures[0] : '';
  if (architecture === 'Qwen2ForProcessRewardModel') return recipePresets['qwen2.5-math-prm'];
  if (architecture.endsWith('ForTokenClassification')) return recipePresets['trl-token-classification'];
  if (architecture.endsWith('ForSequenceClassification')) return recipePresets['sequence-classifier'];
  return undefined;
}
