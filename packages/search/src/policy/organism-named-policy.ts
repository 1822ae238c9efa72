import { createOrganismPolicy, type OrganismPolicyOptions } from '@reward-lens/organism';
import { generatorPolicy, stepLinesPrompt } from './generator-policy.js';
import { defaultPolicyTemplate, type LoadedPolicy, type PolicySettings } from './policy-settings.js';
import { PolicySpecError } from './policy-spec-error.js';

/**
 * The organism's policy as a StepPolicy: it is a TextGenerator, prompted as it reads (the problem,
 * then one step per line). Its sampling is its own (temperature and top-p do not apply); a prompt
 * template or step delimiter other than the defaults would break its layout, and is refused.
 */
export function loadOrganismPolicy(options: OrganismPolicyOptions, settings: PolicySettings): LoadedPolicy {
  if (settings.template !== defaultPolicyTemplate || settings.delimiter !== '\n')
    throw new PolicySpecError("the organism's policy writes one step per line after the problem: --template and --step-delimiter do not apply");
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
