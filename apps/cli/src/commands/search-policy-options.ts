import { parseThreadsOption } from '../model-options.js';
import { parseIntegerOption } from '../parse-integer-option.js';
import { parseNumberOption } from '../parse-number-option.js';
import { unescapeDelimiter } from '../score/unescape-delimiter.js';
import { UsageError } from '../usage-error.js';
import type { PolicySettings } from './search-policy-types.js';

/** The prompt a policy continues when --template is not given. */
export const defaultPolicyTemplate = '{problem}\n\n{steps}';

/** The flags that say how a policy samples and, for a server, how it is reached (`search`, `label`). */
export const policyOptions = {
  'policy-backend': { type: 'string' },
  template: { type: 'string' },
  'step-delimiter': { type: 'string' },
  temperature: { type: 'string' },
  'top-p': { type: 'string' },
  'max-step-tokens': { type: 'string' },
  'max-solution-tokens': { type: 'string' },
  'served-model': { type: 'string' },
  'api-key': { type: 'string' },
  stream: { type: 'boolean' },
  timeout: { type: 'string' },
  concurrency: { type: 'string' },
  retries: { type: 'string' },
  threads: { type: 'string' },
} as const;

/** The flags' help; `flag` is the option that names the policy (`--policy`, `--completer`). */
export const policyOptionsHelp = (flag: string) => `  --temperature <t>         sampling temperature (default: 0.8)
  --top-p <p>               nucleus sampling threshold in (0, 1] (default: 1)
  --max-step-tokens <n>     tokens per step at most (default: 256)
  --max-solution-tokens <n> tokens per whole solution at most (default: 1024)
  --policy-backend <name>   the backend of a local policy model (default: auto)
  --template <text>         the text the policy continues: {problem} and {steps} (each step
                            followed by the step delimiter) are filled in; \n, \t, \r and \\
                            are interpreted (default: {problem}\n\n{steps})
  --step-delimiter <text>   what ends a step the policy writes (default: \n)

A completions server (${flag} http://host:port/v1):
  --served-model <name>     the served model's name (default: the first GET /models lists)
  --api-key <key>           sent as a bearer token
  --stream                  stream the completions (server-sent events)
  --timeout <ms>            per request (with --stream: per chunk) (default: 60000)
  --concurrency <n>         requests in flight at most (default: 8)
  --retries <n>             retries on 408/409/429/5xx, timeouts and dropped connections,
                            with exponential backoff and jitter, honouring Retry-After
                            (default: 4)`;

type PolicyValues = { [Key in keyof typeof policyOptions]?: (typeof policyOptions)[Key]['type'] extends 'boolean' ? boolean : string };

function stepDelimiter(text: string | undefined, usage: string): string {
  const delimiter = unescapeDelimiter(text ?? '\\n');
  if (delimiter === '') throw new UsageError('--step-delimiter must not be empty', usage);
  return delimiter;
}

export function parsePolicySettings(values: PolicyValues, usage: string): PolicySettings {
  const integer = (flag: keyof typeof policyOptions, fallback: number, minimum: number, maximum: number) => {
    const text = values[flag];
    return typeof text === 'string' ? parseIntegerOption(`--${flag}`, text, { minimum, maximum }, usage) : fallback;
  };
  return {
    temperature:
      values.temperature === undefined ? 0.8 : parseNumberOption('--temperature', values.temperature, (value) => value >= 0, 'a number, 0 or more', usage),
    topP:
      values['top-p'] === undefined
        ? 1
        : parseNumberOption('--top-p', values['top-p'], (value) => value > 0 && value <= 1, 'a number above 0 and at most 1', usage),
    maxStepTokens: integer('max-step-tokens', 256, 1, 1_000_000),
    maxSolutionTokens: integer('max-solution-tokens', 1024, 1, 10_000_000),
    backend: values['policy-backend'] ?? 'auto',
    template: values.template === undefined ? defaultPolicyTemplate : unescapeDelimiter(values.template),
    delimiter: stepDelimiter(values['step-delimiter'], usage),
    ...(values['served-model'] !== undefined ? { modelName: values['served-model'] } : {}),
    ...(values['api-key'] !== undefined ? { apiKey: values['api-key'] } : {}),
    stream: values.stream === true,
    timeoutMs: integer('timeout', 60_000, 1, 86_400_000),
    concurrency: integer('concurrency', 8, 1, 1024),
    retries: integer('retries', 4, 0, 100),
    ...(values.threads !== undefined ? { threads: parseThreadsOption(values.threads, usage)! } : {}),
  };
}
