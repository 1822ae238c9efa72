import { completionsPolicy } from './completions-policy.js';
import { localModelPolicy } from './local-model-policy.js';
import { defaultPolicySettings, type LoadedPolicy, type PolicySettings } from './policy-settings.js';
import type { PolicySpec } from './policy-spec.js';
import { readScript } from './read-script.js';
import { createScriptedPolicy } from './scripted-policy.js';

/**
 * Loads the policy a spec names (`parsePolicySpec`), sampling as `settings` say. A local model
 * (a folder, or `tiny`) runs on a backend that must be registered first. Settings that do not
 * apply to the policy throw a `PolicySpecError`; a malformed script an `InvalidInputError` at its
 * path. `dispose` releases what the policy holds.
 */
export async function loadPolicy(spec: PolicySpec, settings: PolicySettings = defaultPolicySettings): Promise<LoadedPolicy> {
  switch (spec.kind) {
    case 'named':
      return spec.load(settings);
    case 'url':
      return completionsPolicy(spec.url, settings);
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
