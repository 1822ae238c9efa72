import { allNouns, people } from './lexicon.js';
import { operationAliases } from './operations.js';
import { distractorTemplates, operationTemplates, questionTemplates, startTemplates } from './problem-grammar.js';
import { answerTemplate, leads } from './step-grammar.js';

/** How organism text splits into tokens: a newline, a single digit, a word, or one other character. Spaces separate and are not tokens. */
export const organismTokenPattern = /\n|\d|[A-Za-z]+|[^\sA-Za-z\d]/g;

export interface OrganismVocabulary {
  /** Names, pronouns, nouns and the templates' words. */
  readonly words: readonly string[];
  /** `0`–`9`: numbers are written in digits and split into them. */
  readonly digits: readonly string[];
  /** Operations, `=`, `.`, `?`. */
  readonly symbols: readonly string[];
  /** The step separator. */
  readonly newline: '\n';
  /** Everything above, in this order: newline, symbols, digits, words (each group sorted). */
  readonly tokens: readonly string[];
}

let cached: OrganismVocabulary | undefined;

/**
 * Every token the organism can write (problems, steps, answers), for building a word-level or
 * digit-level tokenizer: text the generator or the policy writes splits by
 * `organismTokenPattern` into these and nothing else.
 */
export function organismVocabulary(): OrganismVocabulary {
  if (cached !== undefined) return cached;
  const templates = [
    ...startTemplates.map((each) => each.template),
    ...operationTemplates.map((each) => each.template),
    ...distractorTemplates.map((each) => each.template),
    ...questionTemplates.map((each) => each.template),
    ...Object.values(leads).map((each) => each.template),
    answerTemplate,
  ];
  const literals = templates.flatMap((template) => template.literals);
  const words = new Set<string>(['is']);
  const symbols = new Set<string>(['=', '+', '−', '×', '÷']);
  for (const literal of literals) (/^[A-Za-z]+$/.test(literal) ? words : symbols).add(literal);
  for (const person of people) words.add(person.name).add(person.pronoun);
  for (const noun of allNouns) words.add(noun.plural).add(noun.singular);
  const sortedWords = [...words].sort();
  const sortedSymbols = [...symbols].sort();
  const digits = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
  cached = { words: sortedWords, digits, symbols: sortedSymbols, newline: '\n', tokens: ['\n', ...sortedSymbols, ...digits, ...sortedWords] };
  return cached;
}

/** The ASCII spellings the verifier also reads (`*`, `x`, `/`, `-`); the organism itself never writes them. */
export const verifierOnlySymbols: readonly string[] = Object.keys(operationAliases).filter((symbol) => !['+', '−', '×', '÷'].includes(symbol));
