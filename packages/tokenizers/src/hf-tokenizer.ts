// @huggingface/tokenizers 0.2.0 publishes both dist/tokenizers.mjs (its `import`, `browser` and
// `default` entry) and dist/tokenizers.cjs (`require`), so a plain import works in Node ESM, in
// vitest, in our CJS build and in bundlers; the ESM build uses only TextEncoder/TextDecoder.
import { Tokenizer } from '@huggingface/tokenizers';
import { refuseCatastrophicPatterns } from './tokenizer-patterns.js';
import { InvalidInputError, ModelLoadError } from '@reward-lens/spec';

import { HfOffsetAligner } from './hf-offsets.js';
import { spellBytesByteLevel } from './hf-offsets-byte-level.js';
import { compileNormalizer } from './hf-offsets-normalizer.js';
import { compilePreTokenizer, type SpellingScheme } from './hf-offsets-pre-tokenizer.js';
import {
  isJsonObject,
  modelVocabulary,
  readAddedTokens,
  readJsonObject,
  withExtraAddedTokens,
  type HfAddedToken,
  type JsonObject,
} from './hf-tokenizer-json.js';
import { resolveSpecialTokenIds } from './hf-tokenizer-special-tokens.js';
import type { Encoding, PrmTokenizer } from './tokenizer.js';

export type { HfAddedToken } from './hf-tokenizer-json.js';

export interface HfTokenizerOptions {
  /** Names the tokenizer in errors. Default `hf:<tokenizer_class>` from the config, else `hf:<model type>`. */
  name?: string;
  /**
   * Tokens to add as special added tokens, matched literally in the text before anything else
   * (a step tag such as `{ content: '<extra_0>', id: 151651 }`). An id held by another added token
   * replaces that token; one held by the model's vocabulary is refused.
   */
  addedTokens?: readonly HfAddedToken[];
  /**
   * The paths the files were read from. A problem in a file is then a `ModelLoadError` naming
   * its path (`models/prm/tokenizer.json: "added_tokens" must be an array`), as for every other
   * file of a model folder, rather than an `InvalidInputError`.
   */
  files?: { tokenizerJson: string; tokenizerConfig?: string };
}

const encoder = new TextEncoder();

function checkModel(tokenizerJson: JsonObject): JsonObject {
  const model = tokenizerJson.model;
  const location = 'tokenizer.json model';
  if (!isJsonObject(model)) throw new InvalidInputError('is missing', { location });
  if (model.type !== 'BPE' && model.type !== 'Unigram') {
    throw new InvalidInputError(`type ${JSON.stringify(model.type)} is not supported; exact offsets are derived for BPE and Unigram models`, { location });
  }
  for (const key of ['end_of_word_suffix', 'continuing_subword_suffix']) {
    if (model[key] !== undefined && model[key] !== null && model[key] !== '') {
      throw new InvalidInputError(`a BPE ${key} (${JSON.stringify(model[key])}) changes token spellings; it is not supported`, { location });
    }
  }
  return model;
}

function checkConfig(config: JsonObject | undefined): void {
  for (const key of ['remove_space', 'do_lowercase_and_remove_accent']) {
    if (config?.[key] === true) {
      throw new InvalidInputError(`${key}: true rewrites text in ways offsets are not mapped through; it is not supported`, {
        location: 'tokenizer_config.json',
      });
    }
  }
}

class HfTokenizer implements PrmTokenizer {
  readonly name: string;
  readonly vocabSize: number;
  readonly bosTokenId: number | null;
  readonly eosTokenId: number | null;
  readonly padTokenId: number;

  private readonly library: Tokenizer;
  private readonly aligner: HfOffsetAligner;
  private readonly addedIds: Map<string, number>;
  readonly controlTokens: readonly string[];
  private readonly spelling: SpellingScheme;
  private readonly spaceSpelling: string | undefined;
  private readonly byteFallback: boolean;

  constructor(tokenizerJson: unknown, tokenizerConfig: unknown, options: HfTokenizerOptions) {
    const original = readJsonObject(tokenizerJson, 'tokenizer.json');
    const config = tokenizerConfig === undefined || tokenizerConfig === null ? undefined : readJsonObject(tokenizerConfig, 'tokenizer_config.json');
    const model = checkModel(original);
    // Checked before the library reads the file, which fails on a malformed list with a message about its own internals.
    readAddedTokens(original);
    // Before the library compiles a pattern that could hang whoever tokenizes with it.
    refuseCatastrophicPatterns(original);
    checkConfig(config);
    const normalizer = compileNormalizer(original.normalizer);
    this.spelling = compilePreTokenizer(original.pre_tokenizer);
    this.spaceSpelling = this.spelling.metaspace ?? normalizer?.spaceSpelling;
    this.byteFallback = model.type === 'BPE' && model.byte_fallback === true;
    const extra = options.addedTokens ?? [];
    const file = withExtraAddedTokens(original, extra, extra.length > 0 ? modelVocabulary(original) : new Map());
    const className = typeof config?.tokenizer_class === 'string' ? config.tokenizer_class : String(model.type);
    this.name = options.name ?? `hf:${className}`;
    try {
      // The library insists on these keys; files written by hand often leave the empty ones out.
      this.library = new Tokenizer({ normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null, added_tokens: [], ...file }, config ?? {});
    } catch (error) {
      throw new InvalidInputError(`@huggingface/tokenizers cannot load it: ${(error as Error).message}`, { location: 'tokenizer.json', cause: error });
    }
    const library = this.library;
    const addedTokens = readAddedTokens(file);
    this.addedIds = new Map(addedTokens.map((token) => [token.content, token.id]));
    this.controlTokens = addedTokens.filter((token) => token.special && token.content !== '').map((token) => token.content);
    this.aligner = new HfOffsetAligner({
      name: this.name,
      addedTokens,
      normalize: normalizer?.normalize ?? null,
      libraryNormalize: library.normalizer === null ? null : (text) => library.normalizer!.normalize(text),
      preTokenize: library.pre_tokenizer === null ? null : (text, sectionIndex) => library.pre_tokenizer!.pre_tokenize(text, { section_index: sectionIndex }),
      spelling: this.spelling,
      byteFallback: this.byteFallback,
      unkTokenId: library.model?.unk_token_id,
    });
    this.vocabSize = library.model?.vocab.length ?? 0;
    ({
      bosTokenId: this.bosTokenId,
      eosTokenId: this.eosTokenId,
      padTokenId: this.padTokenId,
    } = resolveSpecialTokenIds(config, (token) => library.token_to_id(token)));
  }

  encode(text: string): Encoding {
    if (typeof text !== 'string') throw new InvalidInputError(`must be a string, got ${typeof text}`, { location: 'text' });
    if (text.length === 0) return { ids: [], offsets: [] };
    const { ids, tokens } = this.library.encode(text, { add_special_tokens: false });
    const missing = ids.findIndex((id) => !Number.isInteger(id));
    if (missing >= 0) {
      throw new InvalidInputError(`token ${JSON.stringify(tokens[missing])} has no id (the vocabulary has no unknown token)`, { location: 'text' });
    }
    return { ids, offsets: this.aligner.offsets(text, tokens, ids) };
  }

  /** Decodes as the file's decoder does, keeping special tokens and without `clean_up_tokenization_spaces`. */
  decode(ids: readonly number[]): string {
    ids.forEach((id, index) => {
      if (!Number.isInteger(id) || id < 0 || id >= this.vocabSize || this.library.id_to_token(id) === undefined) {
        throw new InvalidInputError(`token id ${id} is not in the vocabulary`, { location: `ids[${index}]` });
      }
    });
    if (ids.length === 0) return '';
    return this.library.decode([...ids], { skip_special_tokens: false, clean_up_tokenization_spaces: false });
  }

  /**
   * The id of the token whose text is `token`: an added token by its content, else the vocabulary
   * entry spelling that text (byte-level characters for byte-level files, `▁` for spaces in
   * SentencePiece-style ones), else a single byte's `<0xNN>` fallback token.
   */
  tokenToId(token: string): number | undefined {
    if (typeof token !== 'string' || token.length === 0) return undefined;
    const added = this.addedIds.get(token);
    if (added !== undefined) return added;
    const bytes = encoder.encode(token);
    const spelled = this.spelling.byteLevel ? spellBytesByteLevel(bytes) : this.spaceSpelling === undefined ? token : token.replaceAll(' ', this.spaceSpelling);
    const id = this.library.token_to_id(spelled);
    if (id !== undefined || !this.byteFallback || bytes.length !== 1) return id;
    return this.library.token_to_id(`<0x${bytes[0]!.toString(16).toUpperCase().padStart(2, '0')}>`);
  }
}

/**
 * A `PrmTokenizer` over a Hugging Face `tokenizer.json` (BPE or Unigram: byte-level files such as
 * Qwen2/Qwen3, Llama-3 and GPT-2, and SentencePiece-style ones with `▁` and byte fallback such as
 * Llama-2 and Mistral), run by @huggingface/tokenizers, with exact character offsets derived here
 * (the library gives none). Throws an `InvalidInputError` at creation for a file whose normalizer,
 * pre-tokenizer or model offsets cannot be mapped through, and at `encode` rather than return
 * offsets it could not verify.
 *
 * `vocabSize` is the file's id range (largest id + 1, added tokens included), which may be smaller
 * than a model's padded embedding table (151,669 for Qwen3's file, 151,936 rows in the model).
 * BOS, EOS and PAD come from `tokenizer_config.json` (see `resolveSpecialTokenIds`).
 *
 * Offsets are in UTF-16 code units of the text. A token holding part of a character (a byte of an
 * emoji) or part of what the normalizer rewrote as one unit (NFC composing `e` + U+0301) gets that
 * whole span, shared with its neighbours. A SentencePiece dummy prefix comes from no character: a
 * token that is only the prefix `▁` gets the empty span where it was inserted, and a token
 * `▁Hello` the span of `Hello`. Added tokens get their literal text (plus whitespace they strip,
 * with `lstrip`/`rstrip`). Characters the tokenizer drops go to a neighbouring token (see
 * `fillOffsetGaps`).
 *
 * @example
 * const tokenizer = createHfTokenizer(tokenizerJson, tokenizerConfig, {
 *   addedTokens: [{ content: '<extra_0>', id: 151651 }],
 * });
 * tokenizer.encode('x = 4.<extra_0>'); // ..., 151651 with offsets [..., [6, 15]]
 */
export function createHfTokenizer(tokenizerJson: unknown, tokenizerConfig?: unknown, options: HfTokenizerOptions = {}): PrmTokenizer {
  try {
    return new HfTokenizer(tokenizerJson, tokenizerConfig, options);
  } catch (error) {
    throw options.files && InvalidInputError.isInstance(error) ? inFile(error, options.files) : error;
  }
}

/** An error located in `tokenizer.json` or `tokenizer_config.json`, as a ModelLoadError naming the file's path. */
function inFile(error: InvalidInputError, files: NonNullable<HfTokenizerOptions['files']>): InvalidInputError | ModelLoadError {
  const location = error.location ?? '';
  const names: [string, string | undefined][] = [
    ['tokenizer_config.json', files.tokenizerConfig],
    ['tokenizer.json', files.tokenizerJson],
  ];
  const match = names.find(([name, path]) => path !== undefined && location.startsWith(name));
  if (!match) return error;
  const within = location.slice(match[0].length).trim();
  const message = error.message.slice(location.length + 2);
  return new ModelLoadError(within ? `${within}: ${message}` : message, { file: match[1]!, cause: error });
}
