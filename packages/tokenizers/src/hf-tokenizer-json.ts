import { InvalidInputError } from '@reward-lens/spec';
import type { AddedTokenSpec } from './hf-offsets-added-tokens.js';

export type JsonObject = Record<string, unknown>;

/** An added token the caller asks for (a step tag such as `<extra_0>`): special, matched literally. */
export interface HfAddedToken {
  content: string;
  id: number;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Accepts a parsed file or its text. */
export function readJsonObject(value: unknown, location: string): JsonObject {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      throw new InvalidInputError('is not valid JSON', { location, cause: error });
    }
  }
  if (!isJsonObject(parsed)) throw new InvalidInputError('must be a JSON object', { location });
  return parsed;
}

/** `added_tokens` with the library's defaults (`normalized` defaults to `!special`). */
export function readAddedTokens(tokenizerJson: JsonObject): AddedTokenSpec[] {
  const list = tokenizerJson.added_tokens ?? [];
  if (!Array.isArray(list)) throw new InvalidInputError('"added_tokens" must be an array', { location: 'tokenizer.json' });
  return list.map((entry: unknown, index) => {
    const location = `tokenizer.json added_tokens[${index}]`;
    if (!isJsonObject(entry) || typeof entry.content !== 'string' || !Number.isInteger(entry.id)) {
      throw new InvalidInputError('an added token needs a string "content" and an integer "id"', { location });
    }
    const special = entry.special === true;
    return {
      id: entry.id as number,
      content: entry.content,
      lstrip: entry.lstrip === true,
      rstrip: entry.rstrip === true,
      special,
      normalized: typeof entry.normalized === 'boolean' ? entry.normalized : !special,
    };
  });
}

/** The model's vocabulary as token → id (BPE: an object; Unigram: `[piece, score]` pairs). */
export function modelVocabulary(tokenizerJson: JsonObject): Map<string, number> {
  const model = tokenizerJson.model;
  const vocab = isJsonObject(model) ? model.vocab : undefined;
  if (Array.isArray(vocab)) return new Map(vocab.map((entry: unknown, id) => [Array.isArray(entry) ? String(entry[0]) : String(entry), id]));
  if (isJsonObject(vocab)) return new Map(Object.entries(vocab).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
  return new Map();
}

/**
 * A copy of `tokenizerJson` with `extra` appended to `added_tokens` as special tokens matched in
 * the raw text. An extra token with an id an existing added token holds replaces it (Qwen2.5-Math-PRM
 * gives `<extra_0>` the id 151651, which is `<|quad_end|>` in Qwen2 files); one that would give a
 * model-vocabulary id a second spelling, or a content a second id, is refused.
 */
export function withExtraAddedTokens(tokenizerJson: JsonObject, extra: readonly HfAddedToken[], vocabulary: Map<string, number>): JsonObject {
  if (extra.length === 0) return tokenizerJson;
  // Entries are kept as written (a field the library ignores today may matter to a later version).
  let entries = [...((tokenizerJson.added_tokens as unknown[] | undefined) ?? [])];
  let added = readAddedTokens(tokenizerJson);
  const vocabularyIds = new Set(vocabulary.values());
  extra.forEach((token, index) => {
    const location = `options.addedTokens[${index}]`;
    if (!isJsonObject(token) || typeof token.content !== 'string' || token.content.length === 0) {
      throw new InvalidInputError('an added token needs a non-empty string "content"', { location });
    }
    if (!Number.isInteger(token.id) || token.id < 0) throw new InvalidInputError(`id ${token.id} is not a non-negative integer`, { location });
    const sameContent = added.find((existing) => existing.content === token.content);
    if (sameContent !== undefined) {
      if (sameContent.id === token.id) return;
      throw new InvalidInputError(`${JSON.stringify(token.content)} is already added token ${sameContent.id}`, { location });
    }
    const vocabularyId = vocabulary.get(token.content);
    if (vocabularyId !== undefined && vocabularyId !== token.id) {
      throw new InvalidInputError(`${JSON.stringify(token.content)} is already token ${vocabularyId} of the model's vocabulary`, { location });
    }
    if (vocabularyId === undefined && vocabularyIds.has(token.id)) {
      throw new InvalidInputError(`id ${token.id} is already a token of the model's vocabulary`, { location });
    }
    const kept = added.map((existing) => existing.id !== token.id);
    entries = entries.filter((_, entryIndex) => kept[entryIndex]);
    added = added.filter((_, entryIndex) => kept[entryIndex]);
    entries.push({ id: token.id, content: token.content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
    added.push({ id: token.id, content: token.content, lstrip: false, rstrip: false, special: true, normalized: false });
  });
  return { ...tokenizerJson, added_tokens: entries };
}
