import { recipeGauge, type Gauge, type HeadSpec, type ReadingRecipe } from '@reward-lens/core';

/** A reading recipe in words: what `reward-lens recipes` shows for each preset. */
export interface RecipeSummary {
  name: string;
  description: string;
  /** The text the model sees for a two-step solution, special strings escaped. */
  layout: string;
  /** The delimiter that splits a solution given as one text (`--delimiter` overrides it). */
  splitAt: string;
  /** What follows each step, or `none`. */
  stepTag: string;
  /** Which token each step's score is read at. */
  readAt: string;
  head: string;
  activation: string;
  gauge: Gauge;
}

/** Line breaks and tabs spelled out, so a layout stays on one line. */
function escaped(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
}

function quoted(text: string): string {
  return `"${escaped(text)}"`;
}

function layoutOf(recipe: ReadingRecipe): string {
  const { template } = recipe;
  const text =
    escaped(template.prefix) +
    '<problem>' +
    escaped(template.problemSuffix) +
    '<step1>' +
    escaped(template.stepSuffix + template.stepJoiner) +
    '<step2>' +
    escaped(template.stepSuffix + template.suffix);
  return recipe.addBos ? `BOS ${text}` : text;
}

function readAtOf(recipe: ReadingRecipe): string {
  const { readAt } = recipe;
  switch (readAt.at) {
    case 'step-end':
      return "each step's last token";
    case 'suffix':
      return readAt.tokenOffset === 0 ? `the ${quoted(readAt.text)} token after each step` : `the token before ${quoted(readAt.text)} after each step`;
    case 'piece-end':
      return 'the last token of each step with its tag, each step encoded on its own';
  }
}

function headOf(recipe: ReadingRecipe): string {
  const spec: HeadSpec | undefined = recipe.heads.find((head) => head.name === recipe.head);
  const columns = recipe.columns?.map((column) => (typeof column === 'number' ? `column ${column}` : quoted(column.token))).join(', ');
  const reads = columns !== undefined ? `, reading ${columns}` : '';
  if (spec === undefined) return `${recipe.head}${reads}`;
  if (spec.kind === 'lm') return `${spec.name}: the language-model head${reads}`;
  const mlp = spec.hidden !== undefined ? ` after ${spec.hidden.weight} → ReLU` : '';
  const what = spec.kind === 'value' ? 'a scalar value head' : `a ${spec.numLabels}-label token classifier`;
  return `${spec.name}: ${what} (${spec.weight}${mlp})${reads}`;
}

function positiveOf(recipe: ReadingRecipe): string {
  const column = recipe.columns?.[recipe.positiveIndex];
  if (column === undefined) return `class ${recipe.positiveIndex}`;
  return typeof column === 'number' ? `column ${column}` : quoted(column.token);
}

function activationOf(recipe: ReadingRecipe): string {
  switch (recipe.activation) {
    case 'identity':
      return 'none: the raw value';
    case 'sigmoid':
      return 'sigmoid of the value';
    case 'softmax':
      return `softmax, P(${positiveOf(recipe)})`;
  }
}

export function summarizeRecipe(recipe: ReadingRecipe): RecipeSummary {
  return {
    name: recipe.name,
    description: recipe.description,
    layout: layoutOf(recipe),
    splitAt: quoted(recipe.delimiter),
    stepTag: recipe.template.stepSuffix === '' ? 'none' : quoted(recipe.template.stepSuffix),
    readAt: readAtOf(recipe),
    head: headOf(recipe),
    activation: activationOf(recipe),
    gauge: recipeGauge(recipe),
  };
}
