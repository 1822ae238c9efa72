import { policyErrorKinds, type OrganismPolicyOptions, type PolicyErrorKind } from '@reward-lens/organism';
import { PolicySpecError } from './policy-spec-error.js';

/** A decimal probability (`0.2`, `1`, `.5`, `1e-3`), 0 to 1; `Number('')` is 0 and `Number('0x1')` is 1: neither is taken. */
function probability(key: string, text: string): number {
  const value = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw new PolicySpecError(`organism's ${key} must be a probability, 0 to 1, got ${JSON.stringify(text)}`);
  return value;
}

/**
 * The settings after `organism:` (`error=0.2,rescue=0.1,kinds=wrong-result+wrong-copy`); none
 * (`undefined`) gives the policy's defaults. Malformed settings throw a `PolicySpecError`.
 */
export function parseOrganismPolicyOptions(text: string | undefined): OrganismPolicyOptions {
  const options: { -readonly [Key in keyof OrganismPolicyOptions]: OrganismPolicyOptions[Key] } = {};
  if (text === undefined) return options;
  for (const setting of text.split(',')) {
    const [key, value, ...rest] = setting.split('=');
    if (value === undefined || rest.length > 0 || value === '')
      throw new PolicySpecError(`organism policy settings are key=value, comma-separated; got ${JSON.stringify(setting)}`);
    if (key === 'error') options.errorProbability = probability(key, value);
    else if (key === 'rescue') options.rescueProbability = probability(key, value);
    else if (key === 'kinds') {
      const kinds = value.split('+');
      const unknown = kinds.filter((kind) => !(policyErrorKinds as readonly string[]).includes(kind));
      if (unknown.length > 0) throw new PolicySpecError(`organism error kinds are ${policyErrorKinds.join(', ')}; got ${unknown.join(', ')}`);
      options.errorKinds = kinds as PolicyErrorKind[];
    } else throw new PolicySpecError(`the organism policy takes error, rescue and kinds; got ${JSON.stringify(key)}`);
  }
  return options;
}
