import type { GeneratorPolicyOptions } from './generator-policy.js';
import type { PolicySettings } from './policy-settings.js';

/** The `generatorPolicy` options that policy settings give: sampling, budgets, and the prompt from the template. */
export function samplingOptions(name: string, settings: PolicySettings): GeneratorPolicyOptions {
  return {
    name,
    temperature: settings.temperature,
    topP: settings.topP,
    maxStepTokens: settings.maxStepTokens,
    maxSolutionTokens: settings.maxSolutionTokens,
    delimiter: settings.delimiter,
    prompt: (problem: string, steps: readonly string[]) =>
      // Replacement functions: a problem's "$$" must not be read as a replacement pattern.
      settings.template.replaceAll('{problem}', () => problem).replaceAll('{steps}', () => steps.map((step) => step + settings.delimiter).join('')),
  };
}
