import type { DecoderConfig, ReadingRecipe } from '@reward-lens/core';

const family = { llama: 'Llama', mistral: 'Mistral', qwen2: 'Qwen2' } as const;

/**
 * The `config.json` fields that tell readers what the trained model is: the architecture by
 * which `ProcessRM.fromPretrained` infers the recipe (a 2-class token classifier is
 * `*ForTokenClassification`, read as TRL's PRMs are), the labels, and the recipe by name.
 */
export function architectureFields(config: DecoderConfig, recipe: ReadingRecipe): Record<string, unknown> {
  const head = config.heads.find((candidate) => candidate.name === recipe.head);
  const fields: Record<string, unknown> = { reward_lens: { recipe: recipe.name, head: recipe.head } };
  if (recipe.name === 'qwen2.5-math-prm') fields.architectures = ['Qwen2ForProcessRewardModel'];
  else if (head?.kind === 'token-classification') fields.architectures = [`${family[config.architecture]}ForTokenClassification`];
  else if (head?.kind === 'value' && recipe.name === 'sequence-classifier') fields.architectures = [`${family[config.architecture]}ForSequenceClassification`];
  if (head && head.kind !== 'lm') {
    const labels = head.kind === 'value' ? 1 : head.numLabels;
    fields.num_labels = labels;
    fields.id2label = Object.fromEntries(Array.from({ length: labels }, (_, index) => [String(index), `LABEL_${index}`]));
    fields.label2id = Object.fromEntries(Array.from({ length: labels }, (_, index) => [`LABEL_${index}`, index]));
  }
  return fields;
}
