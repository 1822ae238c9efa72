import { tokenRanges, type ProcessRM, type TokenDomainSpec } from '@reward-lens/core';
import { trainingRecords, type DefaultRecipe } from './default-recipe.js';

/** A record with more than this share of tokens its training text never used is outside the domain. */
export const maxUnknownShare = 0.05;

/** How many training records the shipped check counts token ids on. */
export const domainCountRecords = 20_000;

/**
 * The shipped vocabulary check: the token ids of the first `count` training records, laid out as
 * the model reads them (the recipe's tokens included). Solutions in the organism's language use
 * none outside them; other text spells its unknown words in characters the training never used.
 */
export async function trainingTokenDomain(prm: ProcessRM, recipe: DefaultRecipe, count: number): Promise<TokenDomainSpec> {
  const seen = new Set<number>();
  const records = trainingRecords(recipe);
  for (let index = 0; index < count; index++) {
    const record = records.next().value!;
    const pair = await prm.segment({ problem: record.problem, steps: record.steps });
    for (const id of pair.inputIds) seen.add(id);
  }
  return { kind: 'tokens', known: tokenRanges(seen), maxUnknownShare, countedOn: `the first ${count.toLocaleString('en-US')} training records` };
}
