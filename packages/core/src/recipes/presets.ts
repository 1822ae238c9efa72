import type { ReadingRecipe } from './reading-recipe.js';
import { defineRecipe, plainValueRecipe } from './reading-recipe.js';

const qwenMathSystem = 'Please reason step by step, and put your final answer within \\boxed{}.';

/** P(`+`) against `-` from the LM head's logits: how Math-Shepherd and RLHFlow read a step. */
const plusMinusRead = {
  head: 'lm',
  heads: [{ name: 'lm', kind: 'lm' }],
  columns: [{ token: '+' }, { token: '-' }],
  activation: 'softmax',
  positiveIndex: 0,
} as const satisfies Pick<ReadingRecipe, 'head' | 'heads' | 'columns' | 'activation' | 'positiveIndex'>;

/**
 * Qwen2.5-Math-PRM (7B, 72B): ChatML with the model card's system prompt; the steps joined by
 * `<extra_0>` with one after the last step; softmax over the 2-class MLP head
 * (`score.0` → ReLU → `score.2`) at every `<extra_0>`, probability of class 1.
 */
export const qwen25MathPrmRecipe: ReadingRecipe = defineRecipe({
  name: 'qwen2.5-math-prm',
  description: 'Qwen2.5-Math-PRM: ChatML, <extra_0> after each step, P(class 1) of the 2-class head at each <extra_0>',
  template: {
    prefix: `<|im_start|>system\n${qwenMathSystem}<|im_end|>\n<|im_start|>user\n`,
    problemSuffix: '<|im_end|>\n<|im_start|>assistant\n',
    stepSuffix: '<extra_0>',
    suffix: '<|im_end|>\n',
  },
  tokenization: 'whole',
  readAt: { at: 'suffix', text: '<extra_0>', tokenOffset: 0 },
  addBos: false,
  delimiter: '\n\n',
  head: 'classifier',
  heads: [
    {
      name: 'classifier',
      kind: 'token-classification',
      numLabels: 2,
      weight: 'score.2.weight',
      bias: 'score.2.bias',
      hidden: { weight: 'score.0.weight', bias: 'score.0.bias' },
    },
  ],
  activation: 'softmax',
  positiveIndex: 1,
});

/**
 * Math-Shepherd (`peiyi9979/math-shepherd-mistral-7b-prm`): `question + " " + steps`, each step
 * followed by the tag ` ки`, steps joined by newlines; softmax over the LM logits of `+` and `-`
 * at each tag, probability of `+`.
 */
export const mathShepherdRecipe: ReadingRecipe = defineRecipe({
  name: 'math-shepherd',
  description: 'Math-Shepherd: " ки" after each step, P(+) from the LM logits of + and - at each tag',
  template: { problemSuffix: ' ', stepJoiner: '\n', stepSuffix: ' ки' },
  tokenization: 'whole',
  readAt: { at: 'suffix', text: ' ки', tokenOffset: 0 },
  ...plusMinusRead,
});

/**
 * RLHFlow-style chat PRMs (`RLHFlow/Llama3.1-8B-PRM-Deepseek-Data`, `-Mistral-Data`): each step
 * is a user turn (the first one carries the problem) answered by an assistant `+`, in the
 * Llama 3.1 chat template (with its default system header). The score is P(`+`) against `-`
 * from the logits at the token before each answer. The reference scripts run one pass per step;
 * a causal model gives the same logits at every answer in one pass, so that is what we do.
 */
export const rlhflowLlama31Recipe: ReadingRecipe = defineRecipe({
  name: 'rlhflow-llama3.1',
  description: 'RLHFlow chat PRM: a user turn per step answered by "+"; P(+) vs - before each answer, all steps in one pass',
  template: {
    prefix:
      '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|>' +
      '<|start_header_id|>user<|end_header_id|>\n\n',
    problemSuffix: ' ',
    stepJoiner: '<|start_header_id|>user<|end_header_id|>\n\n',
    stepSuffix: '<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n+<|eot_id|>',
  },
  tokenization: 'whole',
  readAt: { at: 'suffix', text: '+', tokenOffset: -1 },
  addBos: false,
  ...plusMinusRead,
});

/**
 * Skywork-o1-Open-PRM (Qwen2.5 1.5B/7B): `BOS + problem + "\n"`, then each step encoded on its
 * own followed by the `\n` token; sigmoid of the scalar value head (`v_head.summary`) at each
 * step's `\n`.
 */
export const skyworkPrmRecipe: ReadingRecipe = defineRecipe({
  name: 'skywork-o1-prm',
  description: 'Skywork-o1-Open-PRM: steps encoded apart, each followed by "\\n"; sigmoid of the value head at each "\\n"',
  template: { problemSuffix: '\n', stepSuffix: '\n' },
  tokenization: 'per-piece',
  readAt: { at: 'piece-end' },
  head: 'value',
  heads: [{ name: 'value', kind: 'value', weight: 'v_head.summary.weight', bias: 'v_head.summary.bias' }],
  activation: 'sigmoid',
});

/**
 * A token classifier as TRL's PRMTrainer trains one: BOS, the prompt, then each step and the
 * separator (`\n`) encoded apart; the label sits on the last token of each step plus separator.
 * Softmax over the 2 classes there, probability of class 1.
 */
export const trlTokenClassificationRecipe: ReadingRecipe = defineRecipe({
  name: 'trl-token-classification',
  description: "TRL PRMTrainer layout: step + separator encoded apart, P(class 1) at the separator's last token",
  template: { stepSuffix: '\n' },
  tokenization: 'per-piece',
  readAt: { at: 'piece-end' },
  head: 'classifier',
  heads: [{ name: 'classifier', kind: 'token-classification', numLabels: 2, weight: 'score.weight', bias: 'score.bias' }],
  activation: 'softmax',
  positiveIndex: 1,
});

/**
 * TRL's token-classification layout, with the model's own language-model head (tied to the
 * embeddings) bounding each step: a step scores no higher than the least probability the model
 * gave a token of the solution so far. How reward-lens's default PRM is read: a model trained with
 * an auxiliary next-token loss on correct solutions predicts their tokens, so a token it gives a
 * low probability (`12 × 6 = 82`) is a mistake the classifier at the step's end may have missed.
 */
export const trlLikelihoodRecipe: ReadingRecipe = {
  ...trlTokenClassificationRecipe,
  name: 'trl-likelihood',
  description: "TRL PRMTrainer layout, P(class 1) at each separator bounded by the model's own probability of every token of the solution so far",
  heads: [...trlTokenClassificationRecipe.heads, { name: 'lm', kind: 'lm' }],
  likelihoodHead: 'lm',
};

/**
 * A sequence classifier (an outcome reward model, `*ForSequenceClassification` with one label)
 * read at every step end instead of only at the final token: its `score` head, verbatim.
 */
export const sequenceClassifierRecipe: ReadingRecipe = {
  ...plainValueRecipe,
  name: 'sequence-classifier',
  description: "a sequence classifier's reward head (score, one label) read raw at the last token of every step",
  heads: [{ name: 'value', kind: 'value', weight: 'score.weight' }],
};

/** Every built-in recipe, by name. */
export const recipePresets: Readonly<Record<string, ReadingRecipe>> = Object.fromEntries(
  [
    plainValueRecipe,
    qwen25MathPrmRecipe,
    mathShepherdRecipe,
    rlhflowLlama31Recipe,
    skyworkPrmRecipe,
    trlTokenClassificationRecipe,
    trlLikelihoodRecipe,
    sequenceClassifierRecipe,
  ].map((recipe) => [recipe.name, recipe]),
);
