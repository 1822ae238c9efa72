import { readFile } from 'node:fs/promises';
import { InvalidInputError, createTextGenerator } from '@reward-lens/core';
import { createOpenAICompletionsClient, generatorPolicy, type StepPolicy } from '@reward-lens/search';
import { createScriptedPolicy, type ScriptedStep } from '@reward-lens/search/testing';
import { loadLanguageModel } from '../load-language-model.js';

/** How the policy samples, from the command line. */
export interface PolicySettings {
  temperature: number;
  topP: number;
  maxStepTokens: number;
  maxSolutionTokens: number;
  /** The policy model's backend (a local model). */
  backend: string;
  /** The prompt, with `{problem}` and `{steps}` (each step followed by the delimiter). */
  template: string;
  /** What ends a step. */
  delimiter: string;
  /** For a URL: the served model's name (default: the first the server lists), key, streaming, limits. */
  modelName?: string;
  apiKey?: string;
  stream: boolean;
  timeoutMs: number;
  concurrency: number;
  retries: number;
}

export interface LoadedPolicy {
  policy: StepPolicy;
  description: string;
  dispose(): Promise<void>;
}

type NamedPolicy = (settings: PolicySettings) => Promise<LoadedPolicy>;

/** The generator-policy options the settings give. */
function samplingOptions(name: string, settings: PolicySettings) {
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

async function localModelPolicy(model: string | undefined, settings: PolicySettings): Promise<LoadedPolicy> {
  const loaded = await loadLanguageModel({ ...(model !== undefined ? { model } : {}), backend: model === undefined ? 'tiny' : settings.backend });
  const generator = createTextGenerator(loaded.backend, loaded.tokenizer, { maxTokens: settings.maxStepTokens });
  return {
    policy: generatorPolicy(generator, samplingOptions(model ?? 'tiny', settings)),
    description: model === undefined ? 'the seeded tiny language model (random weights: its text is noise)' : `the language model in ${model}`,
    dispose: () => loaded.dispose(),
  };
}

/**
 * Policies known by name. `tiny` is the seeded tiny model's LM head (noise, but every path runs);
 * the organism's policy registers here as `organism` when its package lands.
 */
export const namedPolicies: Record<string, NamedPolicy> = {
  tiny: (settings) => localModelPolicy(undefined, settings),
};

/** What `--policy` names: a registered name, an http(s) URL, a scripted policy (a .json file), or a model folder. */
export type PolicySpec = { kind: 'named'; name: string } | { kind: 'url'; url: string } | { kind: 'script'; path: string } | { kind: 'folder'; path: string };

export function parsePolicySpec(text: string): PolicySpec {
  if (/^https?:\/\//i.test(text)) return { kind: 'url', url: text };
  if (Object.hasOwn(namedPolicies, text)) return { kind: 'named', name: text };
  if (/\.json$/i.test(text)) return { kind: 'script', path: text };
  return { kind: 'folder', path: text };
}

/** A scripted policy's file: `{"<steps so far, joined by \n>": ["next step", ...]}` (`""` for the first step). */
async function readScript(path: string): Promise<Record<string, ScriptedStep[]>> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new InvalidInputError(`cannot read the scripted policy: ${error instanceof Error ? error.message : String(error)}`, { location: path, cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.values(value).every((steps) => Array.isArray(steps))) {
    throw new InvalidInputError('a scripted policy is an object from a prefix (steps joined by "\\n") to a list of next steps', { location: path });
  }
  return value as Record<string, ScriptedStep[]>;
}

export async function loadPolicy(spec: PolicySpec, settings: PolicySettings): Promise<LoadedPolicy> {
  switch (spec.kind) {
    case 'named':
      return namedPolicies[spec.name]!(settings);
    case 'url': {
      const client = createOpenAICompletionsClient({
        baseURL: spec.url,
        ...(settings.modelName !== undefined ? { model: settings.modelName } : {}),
        ...(settings.apiKey !== undefined ? { apiKey: settings.apiKey } : {}),
        stream: settings.stream,
        timeoutMs: settings.timeoutMs,
        concurrency: settings.concurrency,
        maxRetries: settings.retries,
      });
      return {
        policy: generatorPolicy(client, { ...samplingOptions(spec.url, settings), concurrency: settings.concurrency }),
        description: `the completions server at ${client.root}`,
        dispose: async () => {},
      };
    }
    case 'script':
      return {
        policy: createScriptedPolicy({ script: await readScript(spec.path), name: spec.path }),
        description: `the scripted policy in ${spec.path}`,
        dispose: async () => {},
      };
    case 'folder':
      return localModelPolicy(spec.path, settings);
  }
}
