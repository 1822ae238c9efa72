import { aggregatorNames, type StepDelimiter } from '@reward-lens/core';
import { defaultModelName } from '@reward-lens/model-default';
import { isLoopbackHost } from '@reward-lens/serve';
import type { ModelSettings } from '../load-process-rm.js';
import { modelOptions, parseModelChoice } from '../model-options.js';
import { parseCommandLine } from '../parse-command-line.js';
import { parseIntegerOption } from '../parse-integer-option.js';
import { parseDelimiterRegex } from '../score/parse-delimiter-regex.js';
import { unescapeDelimiter } from '../score/unescape-delimiter.js';
import { UsageError } from '../usage-error.js';
import { booleanOptions, helpOption, stringOptions } from '../option-table.js';
import { parseChoiceOption } from '../parse-choice-option.js';

export const serveOptions = {
  ...modelOptions,
  ...stringOptions('host', 'port', 'api-key'),
  ...booleanOptions('allow-unauthenticated-remote'),
  ...stringOptions('served-model-name', 'max-batch-tokens', 'max-batch-size', 'max-wait-ms', 'max-body-bytes', 'max-request-tokens', 'request-timeout-ms'),
  ...stringOptions('delimiter', 'delimiter-regex', 'truncation', 'aggregate'),
  ...helpOption,
} as const;

export interface ServeSettings extends ModelSettings {
  host: string;
  port: number;
  apiKey?: string;
  allowUnauthenticatedRemote: boolean;
  modelName: string;
  maxBatchTokens: number;
  maxBatchSize: number;
  maxWaitMs: number;
  maxBodyBytes: number;
  maxRequestTokens: number;
  requestTimeoutMs: number;
  aggregate: string;
  truncation: 'none' | 'left';
  delimiter?: StepDelimiter;
}

/** The environment variable that holds the API key, so it need not appear in the process list. */
export const apiKeyVariable = 'REWARD_LENS_API_KEY';

const hour = 3_600_000;

/** The `serve` command line as settings; every mistake in it is a usage error, found before any model loads. */
export function parseServeSettings(args: readonly string[], usage: string, environment: Record<string, string | undefined>): ServeSettings {
  const { values } = parseCommandLine(args, serveOptions, usage);
  const integer = (flag: keyof typeof values & string, fallback: number, minimum: number, maximum: number) => {
    const text = values[flag];
    return typeof text === 'string' ? parseIntegerOption(`--${flag}`, text, { minimum, maximum }, usage) : fallback;
  };
  const host = values.host ?? '127.0.0.1';
  if (host === '') throw new UsageError('--host must name an address', usage);
  const flagKey = values['api-key'];
  if (flagKey !== undefined && flagKey.trim() === '') throw new UsageError('--api-key must not be empty', usage);
  // An empty variable is a common leftover (`export REWARD_LENS_API_KEY=`): unset on loopback, named elsewhere.
  const variableKey = environment[apiKeyVariable];
  const blankVariable = flagKey === undefined && variableKey !== undefined && variableKey.trim() === '';
  if (blankVariable && !isLoopbackHost(host)) {
    throw new UsageError(`${apiKeyVariable} is set but empty: give it a key (or --api-key <key>) to serve on --host ${host}`, usage);
  }
  const apiKey = flagKey ?? (blankVariable ? undefined : variableKey);
  const allowUnauthenticatedRemote = values['allow-unauthenticated-remote'] === true;
  if (!isLoopbackHost(host) && apiKey === undefined && !allowUnauthenticatedRemote) {
    throw new UsageError(
      `--host ${host} is reachable from other machines: give --api-key <key> (or ${apiKeyVariable}), or --allow-unauthenticated-remote if you really mean to serve without one`,
      usage,
    );
  }
  const aggregate = parseChoiceOption('--aggregate', values.aggregate, aggregatorNames(), usage, 'min');
  const truncation = values.truncation ?? 'none';
  if (truncation !== 'none' && truncation !== 'left') throw new UsageError(`--truncation must be none or left, got ${JSON.stringify(truncation)}`, usage);
  if (values.delimiter !== undefined && values['delimiter-regex'] !== undefined)
    throw new UsageError('give either --delimiter or --delimiter-regex, not both', usage);
  const delimiter =
    values['delimiter-regex'] !== undefined
      ? parseDelimiterRegex(values['delimiter-regex'], usage)
      : values.delimiter !== undefined
        ? unescapeDelimiter(values.delimiter)
        : undefined;
  if (delimiter === '') throw new UsageError('--delimiter must not be empty', usage);
  const model = parseModelChoice(values, usage);
  if (values['served-model-name'] === '') throw new UsageError('--served-model-name must not be empty', usage);
  return {
    ...model,
    host,
    port: integer('port', 8000, 0, 65_535),
    ...(apiKey !== undefined ? { apiKey } : {}),
    allowUnauthenticatedRemote,
    // As vLLM names a model by default: the path it was started with.
    modelName:
      values['served-model-name'] ?? model.model ?? (model.seed !== undefined ? `reward-lens/tiny-seed-${model.seed}` : `reward-lens/${defaultModelName}`),
    maxBatchTokens: integer('max-batch-tokens', 16_384, 1, 16_777_216),
    maxBatchSize: integer('max-batch-size', 32, 1, 4096),
    maxWaitMs: integer('max-wait-ms', 0, 0, 60_000),
    maxBodyBytes: integer('max-body-bytes', 4 * 1024 * 1024, 1, 1024 * 1024 * 1024),
    maxRequestTokens: integer('max-request-tokens', 65_536, 1, 1_073_741_824),
    requestTimeoutMs: integer('request-timeout-ms', 60_000, 1, hour),
    aggregate,
    truncation,
    ...(delimiter !== undefined ? { delimiter } : {}),
  };
}
