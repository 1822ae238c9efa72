import { namedPolicies } from './named-policies.js';
import type { LoadedPolicy, PolicySettings } from './policy-settings.js';

/** What names a policy: a registered name (with its settings), an http(s) URL, a scripted policy (a .json file), or a model folder. */
export type PolicySpec =
  | { kind: 'named'; name: string; load: (settings: PolicySettings) => Promise<LoadedPolicy> }
  | { kind: 'url'; url: string }
  | { kind: 'script'; path: string }
  | { kind: 'folder'; path: string };

/**
 * Reads a policy's name (`reward-lens search --policy`): `tiny`, `organism[:error=<p>,...]`, an
 * http(s) URL, a path ending in `.json` (a scripted policy), or else a model folder. A registered
 * name's settings are checked here, before anything loads (a `PolicySpecError`); nothing is read.
 */
export function parsePolicySpec(text: string): PolicySpec {
  if (/^https?:\/\//i.test(text)) return { kind: 'url', url: text };
  const colon = text.indexOf(':');
  const name = colon < 0 ? text : text.slice(0, colon);
  if (Object.hasOwn(namedPolicies, name)) return { kind: 'named', name, load: namedPolicies[name]!.parse(colon < 0 ? undefined : text.slice(colon + 1)) };
  if (/\.json$/i.test(text)) return { kind: 'script', path: text };
  return { kind: 'folder', path: text };
}
