import { type DecoderModel, isDecoderSource, type ModelSource, registerBackend } from '@reward-lens/spec';
import { spellBytesByteLevel } from '@reward-lens/tokenizers';
import { createReferenceBackend } from '../../src/testing/reference/reference-backend.js';

/** A byte-level BPE `tokenizer.json` of the 256 bytes and no merges: what the in-memory test folders ship. */
export function byteLevelTokenizerJson(): Record<string, unknown> {
  const vocab: Record<string, number> = {};
  for (let byte = 0; byte < 256; byte += 1) vocab[spellBytesByteLevel(Uint8Array.of(byte))] = byte;
  return {
    added_tokens: [],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, use_regex: true },
    post_processor: null,
    decoder: { type: 'ByteLevel' },
    model: { type: 'BPE', vocab, merges: [] },
  };
}

/**
 * Registers the float64 oracle as an explicit-only backend named `name`: it runs the decoder
 * weights it is handed (a graph source runs `fallback`'s), and records every source in `handed`.
 * Returns the unregister function.
 */
export function registerOracle(name: string, fallback: DecoderModel, handed: ModelSource[] = [], sourceKinds = ['decoder']): () => void {
  return registerBackend({
    name,
    priority: 0,
    explicitOnly: true,
    sourceKinds,
    unavailableReason: () => null,
    async create(source) {
      handed.push(source);
      return createReferenceBackend(isDecoderSource(source) ? source.model : fallback);
    },
  });
}
