import { defaultAnswerChecker, type AnswerChecker } from '../answers/answer-checker.js';
import type { Completion, PolicyCallOptions, StepPolicy, StepRequest } from './step-policy.js';

export interface CompleteOptions extends PolicyCallOptions {
  /** Steps a completion may add at most. Default 32. */
  maxSteps?: number;
  /** Tells when a step states the final answer (the path is done). */
  checker?: AnswerChecker;
}

/** Whether a step states a final answer (`\boxed`, "the answer is", `####`), as search and labelling decide a path is done. */
export function statesAnswer(step: string, checker: AnswerChecker = defaultAnswerChecker): boolean {
  return checker.extract(step, { lastNumber: false }) !== null;
}

/**
 * `count` completions of each request's prefix: the policy's own `complete` when it has one, else
 * step by step until a step states an answer, the policy ends (EOS, length) or `maxSteps`.
 * Sample `i` of a request keeps its seed through the steps, so stepping is deterministic too.
 */
export async function completeSolutions(policy: StepPolicy, requests: readonly StepRequest[], options: CompleteOptions = {}): Promise<Completion[][]> {
  const maxSteps = options.maxSteps ?? 32;
  const call = options.signal ? { signal: options.signal } : {};
  if (policy.complete) return policy.complete(requests, { ...call, maxSteps });
  const checker = options.checker ?? defaultAnswerChecker;
  const rows = requests.map((request) =>
    Array.from({ length: request.count }, (_, sample) => ({
      request,
      sample,
      completion: { steps: [] as string[], tokens: 0, end: 'step' as Completion['end'] },
      done: false,
    })),
  );
  const all = rows.flat();
  for (let step = 0; step < maxSteps; step++) {
    const open = all.filter((item) => !item.done);
    if (open.length === 0) break;
    // One sample per request: the step seed mixes the request's seed, the sample and the depth.
    const proposals = await policy.nextSteps(
      open.map((item) => ({
        problem: item.request.problem,
        steps: [...item.request.steps, ...item.completion.steps],
        count: 1,
        seed: (item.request.seed ^ Math.imul(item.sample + 1, 0x9e3779b1) ^ Math.imul(step + 1, 0x85ebca6b)) >>> 0,
      })),
      call,
    );
    open.forEach((item, index) => {
      const proposal = proposals[index]![0]!;
      item.completion.tokens += proposal.tokens;
      if (proposal.text !== '') item.completion.steps.push(proposal.text);
      item.completion.end = proposal.end;
      if (proposal.end !== 'step' || proposal.text === '' || statesAnswer(proposal.text, checker)) item.done = true;
    });
  }
  return rows.map((row) => row.map((item) => item.completion));
}
