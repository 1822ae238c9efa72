import '@reward-lens/backend-tiny/register';
import { createHfTokenizer, ModelLoadError, ProcessRM, resolveBackend, type BackendV1, type PrmTokenizer } from '@reward-lens/core';
import { loadDecoderFolder } from '@reward-lens/core/node';

/** A causal language model ready for `generate`: its backend, tokenizer, and the notes of its load. */
export interface LanguageModel {
  backend: BackendV1;
  tokenizer: PrmTokenizer;
  notes: readonly string[];
  dispose(): Promise<void>;
}

const lmHead = { name: 'lm', kind: 'lm' } as const;

/**
 * A model folder read as a plain causal LM (its LM head only, whatever PRM heads it also has), or
 * the seeded tiny model, whose config has an LM head beside its reward heads.
 */
export async function loadLanguageModel(settings: { model?: string; backend: string }): Promise<LanguageModel> {
  if (settings.model === undefined) {
    const prm = await ProcessRM.fromTiny({ backend: settings.backend });
    return { backend: prm.backend, tokenizer: prm.tokenizer, notes: prm.notes, dispose: () => prm.dispose() };
  }
  const folder = settings.model;
  const loaded = await loadDecoderFolder(folder, { heads: [lmHead] });
  const tokenizer = createHfTokenizer(loaded.tokenizerJson, loaded.tokenizerConfig ?? undefined, { name: `${folder}/tokenizer.json` });
  if (tokenizer.vocabSize > loaded.model.config.vocabSize) {
    throw new ModelLoadError(`the tokenizer has ${tokenizer.vocabSize} tokens but the model only ${loaded.model.config.vocabSize}: they do not belong together`, {
      file: `${folder}/tokenizer.json`,
    });
  }
  const resolved = await resolveBackend(settings.backend, { kind: 'decoder', model: loaded.model, description: `the weights in ${folder}` });
  return { backend: resolved.backend, tokenizer, notes: [...resolved.notes, ...loaded.notes], dispose: () => resolved.backend.dispose() };
}
