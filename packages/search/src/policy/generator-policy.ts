import { InvalidInputError, type GenerateOptions, type Generation, type StopReason, type TextGenerator } from '@reward-lens/core';
import { deriveSeed } from './derive-seed.js';
import { mapConcurrent } from './map-concurrent.js';
import type { Completion, ProposalEnd, StepPolicy, StepProposal, StepRequest } from './step-policy.js';

/** A generation that knows how many tokens it took when it cannot list them (a remote server reports a count). */
export type CountedGeneration = Generation & { completionTokens?: number };

export interface GeneratorPolicyOptions {
  name?: string;
  /** The text a policy continues. Default: the problem, a blank line, then each step followed by the delimiter (the plain PRM recipe's layout). */
  prompt?: (problem: string, steps: readonly string[]) => string;
  /** What ends a step. Default `"\n"`. */
  delimiter?: string;
  /** Tokens per step at most. Default 256. */
  maxStepTokens?: number;
  /** Tokens per completed solution at most (`complete`). Default 1024. */
  maxSolutionTokens?: number;
  /** Default 0.8 (sampling: search needs different proposals). */
  temperature?: number;
  /** Default 1. */
  topP?: number;
  /** Generation calls at once (one per distinct seed). Default 1; raise it for a remote server. */
  concurrency?: number;
}

/**
 * The problem, a newline, then each step followed by a newline: the layout of the organism's
 * policy (a `TextGenerator`), and of a model trained on solutions written one step per line.
 *
 * @example
 * const policy = generatorPolicy(createOrganismPolicy({ errorProbability: 0.2 }), { name: 'organism', prompt: stepLinesPrompt });
 */
export function stepLinesPrompt(problem: string, steps: readonly string[]): string {
  return `${problem}\n${steps.map((step) => `${step}\n`).join('')}`;
}

function endOf(reason: StopReason): ProposalEnd {
  if (reason === 'stop-string') return 'step';
  if (reason === 'stop-token') return 'eos';
  return 'length';
}

/** Generated tokens: the listed ids, plus the end token that stopped it (generated, then dropped). */
function tokensOf(generation: CountedGeneration): number {
  return generation.completionTokens ?? generation.tokenIds.length + (generation.stopReason === 'stop-token' ? 1 : 0);
}

/**
 * A step policy over any core `TextGenerator`: a local language model (`createTextGenerator`) or
 * the OpenAI-compatible completions client. Each sample has its own seed (`deriveSeed`); core's
 * generator takes one seed per call, so samples are generated one call per seed, prompts sharing
 * a seed batched together.
 *
 * @example
 * const policy = generatorPolicy(createTextGenerator(backend, tokenizer, { maxTokens: 128 }), { temperature: 0.7 });
 */
export function generatorPolicy(generator: TextGenerator, options: GeneratorPolicyOptions = {}): StepPolicy {
  const delimiter = options.delimiter ?? '\n';
  if (delimiter === '') throw new InvalidInputError('the step delimiter must not be empty');
  const prompt = options.prompt ?? ((problem: string, steps: readonly string[]) => `${problem}\n\n${steps.map((step) => step + delimiter).join('')}`);
  const sampling = { temperature: options.temperature ?? 0.8, topP: options.topP ?? 1 };
  const concurrency = options.concurrency ?? 1;

  /** Every sample of every request, generated grouped by seed; results per request, in sample order. */
  async function sample(
    requests: readonly StepRequest[],
    extra: { maxTokens: number; stop: string[] },
    signal: AbortSignal | undefined,
  ): Promise<CountedGeneration[][]> {
    const bySeed = new Map<number, { request: number; sample: number }[]>();
    requests.forEach((request, requestIndex) => {
      for (let sampleIndex = 0; sampleIndex < request.count; sampleIndex++) {
        const seed = deriveSeed(request.seed, sampleIndex);
        const group = bySeed.get(seed) ?? [];
        group.push({ request: requestIndex, sample: sampleIndex });
        bySeed.set(seed, group);
      }
    });
    const results = requests.map((request) => new Array<CountedGeneration>(request.count));
    await mapConcurrent([...bySeed], concurrency, async ([seed, members]) => {
      const prompts = members.map((member) => prompt(requests[member.request]!.problem, requests[member.request]!.steps));
      if (signal?.aborted) throw signal.reason;
      // A generator that takes a signal (the completions client) stops at once; core's local one between calls.
      const generations = await generator.generate(prompts, { ...sampling, ...extra, seed, ...(signal ? { signal } : {}) } as Partial<GenerateOptions>);
      members.forEach((member, index) => {
        results[member.request]![member.sample] = generations[index]!;
      });
    });
    return results;
  }

  return {
    name: options.name ?? 'generator',
    async nextSteps(requests, call) {
      const generations = await sample(requests, { maxTokens: options.maxStepTokens ?? 256, stop: [delimiter] }, call?.signal);
      return generations.map((row) =>
        row.map((generation): StepProposal => ({ text: generation.text.trim(), tokens: tokensOf(generation), end: endOf(generation.stopReason) })),
      );
    },
    async complete(requests, call) {
      const generations = await sample(requests, { maxTokens: options.maxSolutionTokens ?? 1024, stop: [] }, call?.signal);
      return generations.map((row) =>
        row.map(
          (generation): Completion => ({
            steps: generation.text
              .split(delimiter)
              .map((step) => step.trim())
              .filter((step) => step !== ''),
            tokens: tokensOf(generation),
            end: generation.stopReason === 'stop-token' ? 'eos' : 'length',
          }),
        ),
      );
    },
  };
}
