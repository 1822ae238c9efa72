import type { Gauge, HeadSpec } from '@reward-lens/spec';

/** How the score is computed from the head's outputs at a read position. */
export type ReadActivation =
  /** The head's single output as it is (a raw reward). */
  | 'identity'
  /** sigmoid of the head's single output. */
  | 'sigmoid'
  /** softmax over the read columns (classes or candidate tokens), then the positive one. */
  | 'softmax';

/**
 * How the text is laid out: `prefix + problem + problemSuffix + firstStepPrefix? + step₁ + stepSuffix
 * + stepJoiner + step₂ + stepSuffix + … + suffix`. Chat formats are spelled out in these strings
 * (special tokens included), so a recipe is plain data.
 */
export interface SequenceTemplate {
  prefix: string;
  problemSuffix: string;
  /** Between a step's suffix and the next step. */
  stepJoiner: string;
  /** After every step (a step tag, a separator, or an assistant turn). */
  stepSuffix: string;
  suffix: string;
}

/** Where each step is read. */
export type ReadAnchor =
  /** The last token of the step's text (the solution is kept verbatim when the template adds nothing between steps). */
  | { at: 'step-end' }
  /** The token of `text` inside the step suffix, moved by `tokenOffset` tokens (-1 reads the token before it). */
  | { at: 'suffix'; text: string; tokenOffset: 0 | -1 }
  /** The last token of the step with its suffix, each step encoded on its own (TRL, Skywork). */
  | { at: 'piece-end' };

/**
 * How a PRM family is read, as data: the template, the separator or step tag after each step,
 * which outputs are read at which positions, the activation and the positive class.
 */
export interface ReadingRecipe {
  name: string;
  description: string;
  template: SequenceTemplate;
  /**
   * `whole`: the laid-out text is encoded at once (merges may cross step boundaries).
   * `per-piece`: the prefix with the problem, and each step with its suffix, are encoded on their
   * own and concatenated, as the reference scripts of TRL and Skywork do.
   */
  tokenization: 'whole' | 'per-piece';
  readAt: ReadAnchor;
  /** Prepend the tokenizer's BOS token. */
  addBos: boolean;
  /** Splits a solution given as one text, unless the caller passes a delimiter. */
  delimiter: string;
  /** The head read at each step. */
  head: string;
  /** The heads to build when loading this family's weights from a model folder (Hugging Face names). */
  heads: HeadSpec[];
  /** Read only these columns: class indices, or candidate tokens spelled as the tokenizer spells them. */
  columns?: readonly (number | { token: string })[];
  activation: ReadActivation;
  /** Index into the read columns of the positive class (softmax only). */
  positiveIndex: number;
  /**
   * A language-model head (one of `heads`) whose probabilities of the tokens the solution writes
   * bound its step scores: a step's score is the least of the recipe head's probability there and
   * the probability this head gave each token of the solution up to that step, given the text
   * before it. A token the model did not expect (a wrong digit, a misread number) then lowers
   * every step from there on, in the same forward pass. Needs a probability (`softmax` or
   * `sigmoid`); read at the final layer only.
   */
  likelihoodHead?: string;
}

/** The gauge a recipe's scores carry: raw rewards are gauge-invariant, activations are probabilities. */
export function recipeGauge(recipe: ReadingRecipe): Gauge {
  return recipe.activation === 'identity' ? 'INVARIANT' : 'PROBABILITY';
}

/** True when the layout adds nothing around steps, so a solution text can be kept verbatim. */
export function keepsSolutionVerbatim(recipe: ReadingRecipe): boolean {
  const { template } = recipe;
  return recipe.readAt.at === 'step-end' && recipe.tokenization === 'whole' && template.stepSuffix === '';
}

/**
 * What a built-in recipe states: the template pieces it fills (the others are empty), and BOS,
 * delimiter and positive index only where they differ from the usual (BOS added, a solution
 * split at newlines, index 0).
 */
export type RecipeFields = Omit<ReadingRecipe, 'template' | 'addBos' | 'delimiter' | 'positiveIndex'> &
  Partial<Pick<ReadingRecipe, 'addBos' | 'delimiter' | 'positiveIndex'>> & { template: Partial<SequenceTemplate> };

/**
 * A recipe with its defaults filled in and its fields in one order. Run fingerprints and fitted
 * step detectors compare recipes as JSON text, so the order of the keys is part of a recipe:
 * name, description, template (prefix, problemSuffix, stepJoiner, stepSuffix, suffix),
 * tokenization, readAt, addBos, delimiter, head, heads, columns, activation, positiveIndex,
 * likelihoodHead.
 */
export function defineRecipe(fields: RecipeFields): ReadingRecipe {
  const { template, columns, likelihoodHead } = fields;
  return {
    name: fields.name,
    description: fields.description,
    template: {
      prefix: template.prefix ?? '',
      problemSuffix: template.problemSuffix ?? '',
      stepJoiner: template.stepJoiner ?? '',
      stepSuffix: template.stepSuffix ?? '',
      suffix: template.suffix ?? '',
    },
    tokenization: fields.tokenization,
    readAt: fields.readAt,
    addBos: fields.addBos ?? true,
    delimiter: fields.delimiter ?? '\n',
    head: fields.head,
    heads: fields.heads,
    ...(columns === undefined ? {} : { columns }),
    activation: fields.activation,
    positiveIndex: fields.positiveIndex ?? 0,
    ...(likelihoodHead === undefined ? {} : { likelihoodHead }),
  };
}

/** The seeded tiny model's reading: a scalar value head read raw at the last token of each step. */
export const plainValueRecipe: ReadingRecipe = defineRecipe({
  name: 'plain-value',
  description: 'problem, blank line, solution; a scalar value head read raw at the last token of each step',
  template: { problemSuffix: '\n\n', stepJoiner: '\n' },
  tokenization: 'whole',
  readAt: { at: 'step-end' },
  head: 'value',
  heads: [{ name: 'value', kind: 'value', weight: 'v_head.weight', bias: 'v_head.bias' }],
  activation: 'identity',
});
