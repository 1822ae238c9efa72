import { loadLanguageModel as loadFolderLanguageModel, ProcessRM, type LanguageModel, type WeightDtypeV1 } from '@reward-lens/core';
import { requireBackendPackage } from './register-backends.js';

export type { LanguageModel } from '@reward-lens/core';

/**
 * A model folder read as a plain causal LM (core's `loadLanguageModel`: an ONNX graph when the
 * folder holds one, else the safetensors weights' LM head), or the seeded tiny model, whose config
 * has an LM head beside its reward heads.
 */
export async function loadLanguageModel(settings: { model?: string; backend: string; threads?: number; dtype?: WeightDtypeV1 }): Promise<LanguageModel> {
  await requireBackendPackage(settings.backend);
  const common = {
    ...(settings.threads !== undefined ? { threads: settings.threads } : {}),
    ...(settings.dtype !== undefined ? { dtype: settings.dtype } : {}),
  };
  if (settings.model === undefined) {
    const prm = await ProcessRM.fromTiny({ backend: settings.backend, ...common });
    return { backend: prm.backend, tokenizer: prm.tokenizer, notes: prm.notes, dispose: () => prm.dispose() };
  }
  return loadFolderLanguageModel(settings.model, { backend: settings.backend, ...common });
}
