import { ModelLoadError, type DecoderModel, type ReadingRecipe } from '@reward-lens/core';
import { loadDecoderFolder } from '@reward-lens/core/node';
import { initializeDecoder } from './initialize-decoder.js';

export interface LoadedModel {
  model: DecoderModel;
  tokenizerJson: unknown;
  tokenizerConfig: unknown | null;
  notes: string[];
}

/**
 * A Hugging Face folder to fine-tune, with the recipe's heads: read from the folder when it has
 * them; otherwise (a causal language model, say) the decoder is loaded and the heads are
 * initialised fresh from `seed`, which the notes say.
 */
export async function loadModelFolder(folder: string, recipe: ReadingRecipe, seed: number): Promise<LoadedModel> {
  try {
    const loaded = await loadDecoderFolder(folder, { heads: recipe.heads });
    return { model: loaded.model, tokenizerJson: loaded.tokenizerJson, tokenizerConfig: loaded.tokenizerConfig, notes: loaded.notes };
  } catch (error) {
    if (!ModelLoadError.isInstance(error)) throw error;
    let bare: Awaited<ReturnType<typeof loadDecoderFolder>>;
    try {
      bare = await loadDecoderFolder(folder, { heads: [] });
    } catch {
      throw error;
    }
    const config = { ...bare.model.config, heads: recipe.heads };
    const model = initializeDecoder(config, seed, {}, bare.model.tensors);
    const names = recipe.heads.map((head) => head.name).join(', ');
    return {
      model,
      tokenizerJson: bare.tokenizerJson,
      tokenizerConfig: bare.tokenizerConfig,
      notes: [...bare.notes, `the folder has no weights for head(s) ${names} (${error.message}); initialised them from seed ${seed}`],
    };
  }
}
