import { policyErrorKinds } from '@reward-lens/organism';
import { defaultPolicySettings as defaults, type PolicySettings } from '@reward-lens/search';
import { parseThreadsOption } from '../model-options.js';
import { parseIntegerOption } from '../parse-integer-option.js';
import { unescapeDelimiter } from '../score/unescape-delimiter.js';
import { UsageError } from '../usage-error.js';
import { booleanOptions, stringOptions } from '../option-table.js';
import { parseSamplingOptions } from '../sampling-options.js';

/** How `--policy organism:...` is written, for the help. */
export const organismPolicyHelp = `organism[:error=<p>,rescue=<r>,kinds=<kind>+<kind>]: the organism's
                            policy, for organism problems (reward-lens organism writes them): each
                            step is wrong with probability p (default 0.1); off track, a wrong step
                            is a compensating one with probability r (default 0.1); kinds are
                            ${policyErrorKinds.join(', ')} (default: all);
                            its sampling is its own (--temperature and --top-p do not apply).`;

/** The flags that say how a policy samples and, for a server, how it is reached (`search`, `label`). */
export const policyOptions = {
  ...stringOptions('policy-backend', 'template', 'step-delimiter', 'temperature', 'top-p', 'max-step-tokens', 'max-solution-tokens'),
  ...stringOptions('served-model', 'api-key'),
  ...booleanOptions('stream'),
  ...stringOptions('timeout', 'concurrency', 'retries', 'threads'),
} as const;

/** The flags' help; `flag` is the option that names the policy (`--policy`, `--completer`). */
export const policyOptionsHelp = (flag: string) => `  --temperature <t>         sampling temperature (default: ${defaults.temperature})
  --top-p <p>               nucleus sampling threshold in (0, 1] (default: ${defaults.topP})
  --max-step-tokens <n>     tokens per step at most (default: ${defaults.maxStepTokens})
  --max-solution-tokens <n> tokens per whole solution at most (default: ${defaults.maxSolutionTokens})
  --policy-backend <name>   the backend of a local policy model (default: ${defaults.backend})
  --template <text>         the text the policy continues: {problem} and {steps} (each step
                            followed by the step delimiter) are filled in; \n, \t, \r and \\
                            are interpreted (default: {problem}\n\n{steps})
  --step-delimiter <text>   what ends a step the policy writes (default: \n)

A completions server (${flag} http://host:port/v1):
  --served-model <name>     the served model's name (default: the first GET /models lists)
  --api-key <key>           sent as a bearer token
  --stream                  stream the completions (server-sent events)
  --timeout <ms>            per request (with --stream: per chunk) (default: ${defaults.timeoutMs})
  --concurrency <n>         requests in flight at most (default: ${defaults.concurrency})
  --retries <n>             retries on 408/409/429/5xx, timeouts and dropped connections,
                            with exponential backoff and jitter, honouring Retry-After
                            (default: ${defaults.retries})`;

type PolicyValues = { [Key in keyof typeof policyOptions]?: (typeof policyOptions)[Key]['type'] extends 'boolean' ? boolean : string };

function stepDelimiter(text: string | undefined, usage: string): string {
  if (text === undefined) return defaults.delimiter;
  const delimiter = unescapeDelimiter(text);
  if (delimiter === '') throw new UsageError('--step-delimiter must not be empty', usage);
  return delimiter;
}

/** The policy flags as search's settings: each flag not given is `defaultPolicySettings`'s value. */
export function parsePolicySettings(values: PolicyValues, usage: string): PolicySettings {
  const integer = (flag: keyof typeof policyOptions, fallback: number, minimum: number, maximum: number) => {
    const text = values[flag];
    return typeof text === 'string' ? parseIntegerOption(`--${flag}`, text, { minimum, maximum }, usage) : fallback;
  };
  return {
    ...parseSamplingOptions(values, defaults, usage),
    maxStepTokens: integer('max-step-tokens', defaults.maxStepTokens, 1, 1_000_000),
    maxSolutionTokens: integer('max-solution-tokens', defaults.maxSolutionTokens, 1, 10_000_000),
    backend: values['policy-backend'] ?? defaults.backend,
    template: values.template === undefined ? defaults.template : unescapeDelimiter(values.template),
    delimiter: stepDelimiter(values['step-delimiter'], usage),
    ...(values['served-model'] !== undefined ? { modelName: values['served-model'] } : {}),
    ...(values['api-key'] !== undefined ? { apiKey: values['api-key'] } : {}),
    stream: values.stream === true,
    timeoutMs: integer('timeout', defaults.timeoutMs, 1, 86_400_000),
    concurrency: integer('concurrency', defaults.concurrency, 1, 1024),
    retries: integer('retries', defaults.retries, 0, 100),
    ...(values.threads !== undefined ? { threads: parseThreadsOption(values.threads, usage)! } : {}),
  };
}
