import { createTextGenerator, loadLanguageModel, ProcessRM, type LanguageModel } from '@reward-lens/core';
import { generatorPolicy } from './generator-policy.js';
import { samplingOptions } from './policy-sampling.js';
import type { LoadedPolicy, PolicySettings } from './policy-settings.js';

/**
 * A model folder read as a plain causal LM (core's `loadLanguageModel`: an ONNX graph when the
 * folder holds one, else the safetensors weights' LM head) on `settings.backend`, or, with no
 * folder, the seeded tiny model (on the `tiny` backend), whose config has an LM head beside its
 * reward heads. The backend must be registered (`@reward-lens/backend-tiny/register`, ...).
 */
async function loadModel(model: string | undefined, settings: PolicySettings): Promise<LanguageModel> {
  const threads = settings.threads !== undefined ? { threads: settings.threads } : {};
  if (model === undefined) {
    const prm = await ProcessRM.fromTiny({ backend: 'tiny', ...threads });
    return { backend: prm.backend, tokenizer: prm.tokenizer, notes: prm.notes, dispose: () => prm.dispose() };
  }
  return loadLanguageModel(model, { backend: settings.backend, ...threads });
}

/** A local language model as a policy: the folder `model`, or the seeded tiny model when it is undefined. */
export async function localModelPolicy(model: string | undefined, settings: PolicySettings): Promise<LoadedPolicy> {
  const loaded = await loadModel(model, settings);
  const generator = createTextGenerator(loaded.backend, loaded.tokenizer, { maxTokens: settings.maxStepTokens });
  return {
    policy: generatorPolicy(generator, samplingOptions(model ?? 'tiny', settings)),
    description: model === undefined ? 'the seeded tiny language model (random weights: its text is noise)' : `the language model in ${model}`,
    dispose: () => loaded.dispose(),
  };
}
