import { readFile } from 'node:fs/promises';
import { InvalidInputError, createTextGenerator } from '@reward-lens/core';
import { createOpenAICompletionsClient } from '@reward-lens/remote';
import { createScriptedPolicy, generatorPolicy, type ScriptedStep } from '@reward-lens/search';
import { loadLanguageModel } from '../load-language-model.js';
import { UsageError } from '../usage-error.js';
import { loadOrganismPolicy, parseOrganismPolicyOptions } from './organism-policy.js';
import { defaultPolicyTemplate } from './search-policy-options.js';
import type { LoadedPolicy, PolicySettings } from './search-policy-types.js';

export type { LoadedPolicy, PolicySettings } from './search-policy-types.js';

/** A policy known by name: `parse` checks what follows `name:` (undefined when nothing does) and says how to load it. */
interface NamedPolicy {
  parse(argument: string | undefined, usage: string): (settings: PolicySettings) => Promise<LoadedPolicy>;
}

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
  const loaded = await loadLanguageModel({
    ...(model !== undefined ? { model } : {}),
    backend: model === undefined ? 'tiny' : settings.backend,
    ...(settings.threads !== undefined ? { threads: settings.threads } : {}),
  });
  const generator = createTextGenerator(loaded.backend, loaded.tokenizer, { maxTokens: settings.maxStepTokens });
  return {
    policy: generatorPolicy(generator, samplingOptions(model ?? 'tiny', settings)),
    description: model === undefined ? 'the seeded tiny language model (random weights: its text is noise)' : `the language model in ${model}`,
    dispose: () => loaded.dispose(),
  };
}

/**
 * Policies known by name. `tiny` is the seeded tiny model's LM head (noise, but every path runs);
 * `organism` is the organism's policy (`organism:error=0.2,rescue=0.1`), whose right answers are
 * known: it writes the organism's steps, one per line, and ends at its answer step.
 */
export const namedPolicies: Record<string, NamedPolicy> = {
  tiny: {
    parse(argument, usage) {
      if (argument !== undefined) throw new UsageError(`the tiny policy takes no settings, got ${JSON.stringify(argument)}`, usage);
      return (settings) => localModelPolicy(undefined, settings);
    },
  },
  organism: {
    parse(argument, usage) {
      const options = parseOrganismPolicyOptions(argument, usage);
      return async (settings) => {
        // The organism reads and writes its own layout: a prompt template or delimiter would break it.
        if (settings.template !== defaultPolicyTemplate || settings.delimiter !== '\n')
          throw new UsageError("the organism's policy writes one step per line after the problem: --template and --step-delimiter do not apply", usage);
        return loadOrganismPolicy(options, settings);
      };
    },
  },
};

/** What `--policy` names: a registered name (with its settings), an http(s) URL, a scripted policy (a .json file), or a model folder. */
export type PolicySpec =
  | { kind: 'named'; name: string; load: (settings: PolicySettings) => Promise<LoadedPolicy> }
  | { kind: 'url'; url: string }
  | { kind: 'script'; path: string }
  | { kind: 'folder'; path: string };

/** Reads `--policy`; a registered name's settings are checked here, before anything loads. */
export function parsePolicySpec(text: string, usage: string): PolicySpec {
  if (/^https?:\/\//i.test(text)) return { kind: 'url', url: text };
  const colon = text.indexOf(':');
  const name = colon < 0 ? text : text.slice(0, colon);
  if (Object.hasOwn(namedPolicies, name))
    return { kind: 'named', name, load: namedPolicies[name]!.parse(colon < 0 ? undefined : text.slice(colon + 1), usage) };
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
      return spec.load(settings);
    case 'url': {
      const client = createOpenAICompletionsClient({
        baseURL: spec.url,
        ...(settings.modelName !== undefined ? { model: settings.modelName } : {}),
        ...(settings.apiKey !== undefined ? { apiKey: settings.apiKey } : {}),
        stream: settings.stream,
        timeoutMs: settings.timeoutMs,
        concurrency: settings.concurrency,
        retries: settings.retries,
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
