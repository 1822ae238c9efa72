import { type BackendV1, InvalidInputError } from '@reward-lens/spec';
import type { PrmTokenizer } from '@reward-lens/tokenizers';
import type { ReadingRecipe } from '../recipes/reading-recipe.js';

/** The recipe's columns as token ids (a column may name a token); each must be one token of the tokenizer. */
export function recipeColumns(recipe: ReadingRecipe, tokenizer: PrmTokenizer): number[] | undefined {
  return recipe.columns?.map((column) => {
    if (typeof column === 'number') return column;
    const id = tokenizer.tokenToId(column.token);
    if (id === undefined)
      throw new InvalidInputError(
        `recipe "${recipe.name}" reads token ${JSON.stringify(column.token)}, which tokenizer "${tokenizer.name}" does not have as one token`,
      );
    return id;
  });
}

/** The backend has the head the recipe reads, and its width fits the recipe's activation. */
export function checkRecipeFitsBackend(recipe: ReadingRecipe, columns: number[] | undefined, backend: BackendV1): void {
  const head = backend.info.heads.find((candidate) => candidate.name === recipe.head);
  if (!head) {
    throw new InvalidInputError(
      `recipe "${recipe.name}" reads head "${recipe.head}", which backend "${backend.name}" does not have (heads: ${backend.info.heads.map((h) => h.name).join(', ')})`,
    );
  }
  const width = columns?.length ?? head.width;
  if (recipe.activation === 'softmax' && (width < 2 || recipe.positiveIndex >= width)) {
    throw new InvalidInputError(`recipe "${recipe.name}" takes a softmax over ${width} output(s) with positive index ${recipe.positiveIndex}`);
  }
  if (recipe.activation !== 'softmax' && width !== 1) {
    throw new InvalidInputError(
      `recipe "${recipe.name}" reads one output with ${recipe.activation}, but head "${head.name}" gives ${width}; choose columns or a softmax`,
    );
  }
}
