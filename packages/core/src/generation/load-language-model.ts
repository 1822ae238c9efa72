import { type BackendV1, ModelLoadError } from '@reward-lens/spec';
import type { ModelFiles } from '@reward-lens/loaders';
import type { PrmTokenizer } from '@reward-lens/tokenizers';
import { loadPretrained, loadPretrainedFiles, type LoadedPretrained, type PretrainedOptions } from '../process-rm/load-pretrained.js';
import { plainValueRecipe, type ReadingRecipe } from '../recipes/reading-recipe.js';

/** A causal language model ready for `generate`: its backend, tokenizer, and the notes of its load. */
export interface LanguageModel {
  backend: BackendV1;
  tokenizer: PrmTokenizer;
  notes: readonly string[];
  dispose(): Promise<void>;
}

export type LanguageModelOptions = Pick<PretrainedOptions, 'backend' | 'backendSettings' | 'threads' | 'slidingWindow' | 'dtype'>;

/** A folder read as a plain causal LM: its LM head only (named `lm`), whatever PRM heads it also has. */
const causalLmReading: ReadingRecipe = {
  ...plainValueRecipe,
  name: 'causal-lm',
  description: 'a causal language model: its LM head',
  head: 'lm',
  heads: [{ name: 'lm', kind: 'lm' }],
};

/** What generation needs of a backend that a folder's graph may lack (an export without the LM head or the cache). */
function checkGenerationFits(backend: BackendV1, file: string): void {
  if (!backend.info.heads.some((head) => head.name === 'lm' && head.kind === 'lm')) {
    const heads = backend.info.heads.map((head) => `${head.name} (${head.kind})`).join(', ') || 'none';
    throw new ModelLoadError(
      `generate needs an LM head named "lm", and this model has none (its heads: ${heads}); export a causal LM, or name a recipe with an LM head`,
      { file },
    );
  }
  if (!backend.supportsCache) {
    throw new ModelLoadError(
      `generate needs a KV cache, and backend "${backend.name}" has none for this model (an ONNX graph exported with --no-past has no past_key_values inputs)`,
      { file },
    );
  }
}

async function fitForGeneration(loaded: LoadedPretrained): Promise<LanguageModel> {
  try {
    checkGenerationFits(loaded.backend, loaded.modelFile);
  } catch (error) {
    await loaded.backend.dispose();
    throw error;
  }
  return { backend: loaded.backend, tokenizer: loaded.tokenizer, notes: loaded.notes, dispose: () => loaded.backend.dispose() };
}

/**
 * A model folder's files read as a causal language model (browser-safe): an ONNX graph when the
 * folder holds one (unless the backend named runs weights only), else the safetensors weights'
 * LM head, read as `fromFiles` reads a folder; the backend must give the LM head and a KV cache.
 */
export async function loadLanguageModelFiles(files: ModelFiles, options: LanguageModelOptions = {}): Promise<LanguageModel> {
  return fitForGeneration(await loadPretrainedFiles(files, { ...options, recipe: causalLmReading }));
}

/**
 * A model folder on disk read as a causal language model (Node), for `generate` and
 * `createTextGenerator`: see `loadLanguageModelFiles`.
 *
 * @example
 * const model = await loadLanguageModel('models/Qwen2.5-Math-1.5B', { backend: 'auto' });
 * const [generation] = await generate(model.backend, model.tokenizer, ['Compute 2+2.'], { maxTokens: 32 });
 */
export async function loadLanguageModel(folder: string, options: LanguageModelOptions = {}): Promise<LanguageModel> {
  return fitForGeneration(await loadPretrained(folder, { ...options, recipe: causalLmReading }));
}
