import type { ProposalEnd, StepPolicy, StepProposal, StepRequest } from './step-policy.js';

/** A scripted next step: its text, and optionally how the policy ended it and its token count. */
export type ScriptedStep = string | { text: string; end?: ProposalEnd; tokens?: number };

export interface ScriptedPolicyOptions {
  /**
   * The next steps each prefix offers, keyed by the steps so far joined with `"\n"` (`""` for the
   * first step), or a function of the problem and the steps. A prefix with nothing scripted ends
   * (an empty proposal at EOS).
   */
  script: Readonly<Record<string, readonly ScriptedStep[]>> | ((problem: string, steps: readonly string[]) => readonly ScriptedStep[] | undefined);
  /** A step's token count. Default: its whitespace-separated words. */
  countTokens?: (text: string) => number;
  name?: string;
}

export interface ScriptedPolicy extends StepPolicy {
  /** Every request made, in order. */
  readonly requests: StepRequest[];
}

/**
 * A deterministic policy for exact tests: the k-th proposal ever asked of a prefix is its
 * scripted option k (cycling), so a search's picks and counts can be worked out by hand. Seeds
 * are ignored. It has no `complete`: completions step through the script.
 */
export function createScriptedPolicy(options: ScriptedPolicyOptions): ScriptedPolicy {
  const countTokens = options.countTokens ?? ((text: string) => text.split(/\s+/).filter(Boolean).length);
  const cursors = new Map<string, number>();
  const requests: StepRequest[] = [];
  const optionsFor = (problem: string, steps: readonly string[]) =>
    typeof options.script === 'function' ? options.script(problem, steps) : options.script[steps.join('\n')];
  return {
    name: options.name ?? 'scripted',
    requests,
    async nextSteps(batch) {
      return batch.map((request) => {
        requests.push({ ...request, steps: [...request.steps] });
        const choices = optionsFor(request.problem, request.steps) ?? [];
        const key = `${request.problem}\u0000${request.steps.join('\n')}`;
        return Array.from({ length: request.count }, (): StepProposal => {
          if (choices.length === 0) return { text: '', tokens: 0, end: 'eos' };
          const cursor = cursors.get(key) ?? 0;
          cursors.set(key, cursor + 1);
          const choice = choices[cursor % choices.length]!;
          const step = typeof choice === 'string' ? { text: choice } : choice;
          return { text: step.text, tokens: step.tokens ?? countTokens(step.text), end: step.end ?? 'step' };
        });
      });
    },
  };
}
