import { localModelPolicy } from './local-model-policy.js';
import { loadOrganismPolicy } from './organism-named-policy.js';
import { parseOrganismPolicyOptions } from './organism-policy-options.js';
import type { LoadedPolicy, PolicySettings } from './policy-settings.js';
import { PolicySpecError } from './policy-spec-error.js';

/** A policy known by name: `parse` checks what follows `name:` (undefined when nothing does) and says how to load it. */
export interface NamedPolicy {
  parse(argument: string | undefined): (settings: PolicySettings) => Promise<LoadedPolicy>;
}

/**
 * Policies known by name. `tiny` is the seeded tiny model's LM head (noise, but every path runs);
 * `organism` is the organism's policy (`organism:error=0.2,rescue=0.1`), whose right answers are
 * known: it writes the organism's steps, one per line, and ends at its answer step. Settings a
 * policy cannot take throw a `PolicySpecError`.
 */
export const namedPolicies: Readonly<Record<string, NamedPolicy>> = {
  tiny: {
    parse(argument) {
      if (argument !== undefined) throw new PolicySpecError(`the tiny policy takes no settings, got ${JSON.stringify(argument)}`);
      return (settings) => localModelPolicy(undefined, settings);
    },
  },
  organism: {
    parse(argument) {
      const options = parseOrganismPolicyOptions(argument);
      return async (settings) => loadOrganismPolicy(options, settings);
    },
  },
};
