import { InvalidInputError } from '@reward-lens/spec';
import { isJsonObject, type JsonObject } from './hf-tokenizer-json.js';

export interface SpecialTokenIds {
  bosTokenId: number | null;
  eosTokenId: number | null;
  padTokenId: number;
}

/** Tried in order when `tokenizer_config.json` does not name the token at all. */
const bosFallbacks = ['<s>', '<|begin_of_text|>', '<bos>'];
const eosFallbacks = ['</s>', '<|end_of_text|>', '<|endoftext|>', '<eos>'];

type Named = { kind: 'absent' } | { kind: 'none' } | { kind: 'token'; token: string };

/** `bos_token` and friends are a string, `{ content }` (an AddedToken) or null. */
function readNamed(config: JsonObject | undefined, key: string): Named {
  if (config === undefined || !Object.hasOwn(config, key)) return { kind: 'absent' };
  const value = config[key];
  if (value === null) return { kind: 'none' };
  if (typeof value === 'string') return { kind: 'token', token: value };
  if (isJsonObject(value) && typeof value.content === 'string') return { kind: 'token', token: value.content };
  throw new InvalidInputError(`must be a token string, an object with "content", or null (got ${JSON.stringify(value)})`, {
    location: `tokenizer_config.json ${key}`,
  });
}

function resolve(config: JsonObject | undefined, key: string, fallbacks: readonly string[], idOf: (token: string) => number | undefined): number | null {
  const named = readNamed(config, key);
  if (named.kind === 'none') return null;
  if (named.kind === 'token') {
    const id = idOf(named.token);
    if (id === undefined) {
      throw new InvalidInputError(`names ${JSON.stringify(named.token)}, which is not a token of tokenizer.json`, {
        location: `tokenizer_config.json ${key}`,
      });
    }
    return id;
  }
  for (const token of fallbacks) {
    const id = idOf(token);
    if (id !== undefined) return id;
  }
  return null;
}

/**
 * BOS, EOS and PAD ids from `tokenizer_config.json`. A token the config names must exist; one it
 * sets to `null` is absent (Qwen's `bos_token: null`). One it does not mention (or no config at all)
 * falls back to the first of the usual spellings the vocabulary has: BOS `<s>`, `<|begin_of_text|>`,
 * `<bos>`; EOS `</s>`, `<|end_of_text|>`, `<|endoftext|>`, `<eos>`. PAD, which is never read, falls
 * back to EOS, else 0.
 */
export function resolveSpecialTokenIds(config: JsonObject | undefined, idOf: (token: string) => number | undefined): SpecialTokenIds {
  const bosTokenId = resolve(config, 'bos_token', bosFallbacks, idOf);
  const eosTokenId = resolve(config, 'eos_token', eosFallbacks, idOf);
  const padTokenId = resolve(config, 'pad_token', [], idOf) ?? eosTokenId ?? 0;
  return { bosTokenId, eosTokenId, padTokenId };
}
