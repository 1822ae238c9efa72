export { generate, type GenerateOptions, type Generation, type StopReason } from './generate.js';
export { Sampler, argmax, type SamplerOptions } from './sampler.js';
export { createTextGenerator, type TextGenerator } from './text-generator.js';
export { loadLanguageModel, loadLanguageModelFiles, type LanguageModel, type LanguageModelOptions } from './load-language-model.js';
