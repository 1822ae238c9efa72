import { PolicySpecError, type LoadedPolicy, type PolicySettings } from '@reward-lens/search';
import { loadPolicy as loadSearchPolicy, parsePolicySpec as parseSearchPolicySpec, type PolicySpec } from '@reward-lens/search/node';
import { requireBackendPackage } from '../register-backends.js';
import { UsageError } from '../usage-error.js';

/** Search's refusal of a policy's settings (`organism:error=2`, `tiny:x`) is the command's usage error (exit 2). */
function asUsageError(error: unknown, usage: string): unknown {
  return PolicySpecError.isInstance(error) ? new UsageError(error.message, usage) : error;
}

/** Reads `--policy` (search's `parsePolicySpec`); a registered name's settings are checked here, before anything loads. */
export function parsePolicySpec(text: string, usage: string): PolicySpec {
  try {
    return parseSearchPolicySpec(text);
  } catch (error) {
    throw asUsageError(error, usage);
  }
}

/** Loads the policy (search's `loadPolicy`), after the backend package a local model needs, so that a missing one names what to install. */
export async function loadPolicy(spec: PolicySpec, settings: PolicySettings, usage: string): Promise<LoadedPolicy> {
  if (spec.kind === 'folder') await requireBackendPackage(settings.backend);
  // The tiny policy runs on the tiny backend, whatever --policy-backend says.
  else if (spec.kind === 'named' && spec.name === 'tiny') await requireBackendPackage('tiny');
  try {
    return await loadSearchPolicy(spec, settings);
  } catch (error) {
    throw asUsageError(error, usage);
  }
}
