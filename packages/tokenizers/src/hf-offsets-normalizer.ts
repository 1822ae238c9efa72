import {
  LowercaseNormalizer,
  NFCNormalizer,
  NFDNormalizer,
  NFKCNormalizer,
  NFKDNormalizer,
  PrecompiledNormalizer,
  ReplaceNormalizer,
  StripAccentsNormalizer,
} from '@huggingface/tokenizers';
import { InvalidInputError } from '@reward-lens/spec';
import { insertAligned, replaceAligned, stripAligned, type AlignedText } from './hf-offsets-aligned-text.js';
import { normalizeChunked } from './hf-offsets-chunked.js';

/** One normalizer step, carrying the alignment to the original text along. */
export type AlignedNormalizer = (aligned: AlignedText) => AlignedText;

export interface CompiledNormalizer {
  normalize: AlignedNormalizer;
  /** What a `Replace` step turns `" "` into (`"▁"` for SentencePiece-style files), when one does. */
  spaceSpelling: string | undefined;
}

type Config = Record<string, unknown>;
type NormalizerInstance = { normalize(text: string): string };
type NormalizerClass = new (config: never) => NormalizerInstance;

/** Normalizers that act per character, except where characters combine: aligned chunk by chunk. */
const chunkedNormalizers: Record<string, NormalizerClass> = {
  NFC: NFCNormalizer,
  NFD: NFDNormalizer,
  NFKC: NFKCNormalizer,
  NFKD: NFKDNormalizer,
  Lowercase: LowercaseNormalizer,
  StripAccents: StripAccentsNormalizer,
  Precompiled: PrecompiledNormalizer,
};

export const supportedNormalizerTypes = ['Sequence', 'Prepend', 'Replace', 'Strip', ...Object.keys(chunkedNormalizers)] as const;

function isConfig(value: unknown): value is Config {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unsupported(location: string, message: string): never {
  throw new InvalidInputError(`${message}; exact offsets can be derived for normalizers of type ${supportedNormalizerTypes.join(', ')}`, { location });
}

function compileStep(config: unknown, location: string, spaceSpellings: string[]): AlignedNormalizer | null {
  if (config === null || config === undefined) return null;
  if (!isConfig(config) || typeof config.type !== 'string') unsupported(location, 'a normalizer must be an object with a string "type"');
  const type = config.type;
  switch (type) {
    case 'Sequence': {
      const list = config.normalizers ?? [];
      if (!Array.isArray(list)) unsupported(location, 'a Sequence normalizer needs a "normalizers" array');
      const steps = list
        .map((item, index) => compileStep(item, `${location}.normalizers[${index}]`, spaceSpellings))
        .filter((step): step is AlignedNormalizer => step !== null);
      return (aligned) => steps.reduce((current, step) => step(current), aligned);
    }
    case 'Prepend': {
      const prepend = config.prepend;
      if (typeof prepend !== 'string') unsupported(location, 'a Prepend normalizer needs a string "prepend"');
      // The dummy prefix comes from no character of the text: it is anchored, zero-width, at the start.
      return (aligned) => insertAligned(aligned, 0, prepend);
    }
    case 'Replace': {
      const content = config.content ?? '';
      if (typeof content !== 'string' || content.includes('$')) {
        unsupported(location, `a Replace normalizer's content must be a string without "$" (got ${JSON.stringify(content)})`);
      }
      // The library's own compiled pattern, so the aligned replacement matches exactly what it does.
      const pattern = new ReplaceNormalizer(config as never).pattern;
      if (pattern === null) return null;
      const patternConfig = config.pattern;
      if (isConfig(patternConfig) && patternConfig.String === ' ') spaceSpellings.push(content);
      return (aligned) => replaceAligned(aligned, pattern, content);
    }
    case 'Strip': {
      const left = Boolean(config.strip_left);
      const right = Boolean(config.strip_right);
      return (aligned) => stripAligned(aligned, left, right);
    }
    default: {
      const normalizerClass = Object.hasOwn(chunkedNormalizers, type) ? chunkedNormalizers[type] : undefined;
      if (normalizerClass === undefined) unsupported(location, `the ${JSON.stringify(type)} normalizer changes text in ways offsets are not mapped through`);
      const instance = new normalizerClass(config as never);
      return (aligned) => normalizeChunked(aligned, (text) => instance.normalize(text));
    }
  }
}

/**
 * Compiles a `tokenizer.json` normalizer into an aligned one, or throws an `InvalidInputError`
 * naming the first normalizer it cannot map offsets through. `null` when there is no normalizer.
 */
export function compileNormalizer(config: unknown, location = 'tokenizer.json normalizer'): CompiledNormalizer | null {
  const spaceSpellings: string[] = [];
  const normalize = compileStep(config, location, spaceSpellings);
  if (normalize === null) return null;
  return { normalize, spaceSpelling: spaceSpellings.at(-1) };
}
