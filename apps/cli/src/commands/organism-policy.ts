import { createOrganismPolicy, policyErrorKinds, type OrganismPolicyOptions, type PolicyErrorKind } from '@reward-lens/organism';
import { generatorPolicy, stepLinesPrompt } from '@reward-lens/search';
import { parseNumberOption } from '../parse-number-option.js';
import { UsageError } from '../usage-error.js';
import type { LoadedPolicy, PolicySettings } from './search-policy-types.js';

/** How `--policy organism:...` is written, for the help. */
export const organismPolicyHelp = `organism[:error=<p>,rescue=<r>,kinds=<kind>+<kind>]: the organism's
                            policy, for organism problems (reward-lens organism writes them): each
                            step is wrong with probability p (default 0.1); off track, a wrong step
                            is a compensating one with probability r (default 0.1); kinds are
                            ${policyErrorKinds.join(', ')} (default: all);
                            its sampling is its own (--temperature and --top-p do not apply).`;

const probability = (key: string, text: string, usage: string) =>
  parseNumberOption(`organism's ${key}`, text, (value) => value >= 0 && value <= 1, 'a probability, 0 to 1', usage);

/** The settings after `organism:` (`error=0.2,rescue=0.1,kinds=wrong-result+wrong-copy`); none gives the policy's defaults. */
export function parseOrganismPolicyOptions(text: string | undefined, usage: string): OrganismPolicyOptions {
  const options: { -readonly [Key in keyof OrganismPolicyOptions]: OrganismPolicyOptions[Key] } = {};
  if (text === undefined) return options;
  for (const setting of text.split(',')) {
    const [key, value, ...rest] = setting.split('=');
    if (value === undefined || rest.length > 0 || value === '')
      throw new UsageError(`organism policy settings are key=value, comma-separated; got ${JSON.stringify(setting)}`, usage);
    if (key === 'error') options.errorProbability = probability(key, value, usage);
    else if (key === 'rescue') options.rescueProbability = probability(key, value, usage);
    else if (key === 'kinds') {
      const kinds = value.split('+');
      const unknown = kinds.filter((kind) => !(policyErrorKinds as readonly string[]).includes(kind));
      if (unknown.length > 0) throw new UsageError(`organism error kinds are ${policyErrorKinds.join(', ')}; got ${unknown.join(', ')}`, usage);
      options.errorKinds = kinds as PolicyErrorKind[];
    } else throw new UsageError(`the organism policy takes error, rescue and kinds; got ${JSON.stringify(key)}`, usage);
  }
  return options;
}

/** The organism's policy as a StepPolicy: it is a TextGenerator, prompted as it reads (the problem, then one step per line). */
export function loadOrganismPolicy(options: OrganismPolicyOptions, settings: PolicySettings): LoadedPolicy {
  const organism = createOrganismPolicy(options);
  const name = `organism(p=${organism.errorProbability}, rho=${organism.rescueProbability}, kinds=${organism.errorKinds.join('+')})`;
  return {
    policy: generatorPolicy(organism, {
      name,
      prompt: stepLinesPrompt,
      delimiter: '\n',
      maxStepTokens: settings.maxStepTokens,
      maxSolutionTokens: settings.maxSolutionTokens,
    }),
    description: `the organism's policy (error probability ${organism.errorProbability}, rescue probability ${organism.rescueProbability}, errors ${organism.errorKinds.join(', ')})`,
    dispose: async () => {},
  };
}
