import { aggregatorNames, InvalidInputError, requireWellFormedText } from '@reward-lens/core';
import { HttpError } from '../http/http-error.js';
import type { RecordError } from '../records/record-scorer.js';
import { scoreJob, type ScoreJob } from '../server-jobs.js';
import type { RouteAnswer, RouteContext } from './route-context.js';
import { prepareWithinTokens } from './token-limit.js';

type Prepared = { job: ScoreJob } | { error: RecordError };

function invalid(message: string): { error: RecordError } {
  return { error: { code: InvalidInputError.code, message } };
}

/** A record's own options (`delimiter`, `aggregate`), checked, then its shape, then its token count. */
function prepare(context: RouteContext, value: unknown): Prepared {
  const fields = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const delimiter = fields.delimiter;
  if (delimiter !== undefined && (typeof delimiter !== 'string' || delimiter === '')) return invalid('"delimiter" must be a non-empty string');
  // Half of a surrogate pair would split a character (an emoji) into halves: the one rule for text, as core applies it.
  if (typeof delimiter === 'string') {
    try {
      requireWellFormedText(delimiter, '"delimiter"');
    } catch (error) {
      return invalid((error as Error).message);
    }
  }
  const aggregate = fields.aggregate ?? context.options.aggregate;
  if (typeof aggregate !== 'string' || !aggregatorNames().includes(aggregate)) {
    return invalid(`"aggregate" must be one of ${aggregatorNames().join(', ')}, got ${JSON.stringify(aggregate)}`);
  }
  const parsed = context.records.parse(value);
  if ('error' in parsed) return parsed;
  let tokens = 1;
  try {
    tokens = context.processRMFor(delimiter).tokenize(parsed.input).inputIds.length;
  } catch {
    // A record that does not tokenize (an empty solution, too long) gets its error from scoring, in the records' own words.
  }
  return { job: scoreJob(parsed.input, tokens, delimiter, aggregate) };
}

/**
 * `POST /v1/score`: one record (`{ problem, solution | steps, delimiter?, aggregate? }`) or a list
 * of them. A record gets its scores; a bad record its `{ error }` (a list goes on past it, each
 * answer labelled with its `index`; a single bad record is a 422). Records of concurrent requests
 * share dynamic batches.
 */
export async function scoreRoute(context: RouteContext, body: unknown, signal: AbortSignal): Promise<RouteAnswer> {
  const many = Array.isArray(body);
  if (!many && (typeof body !== 'object' || body === null)) {
    throw new HttpError(400, 'BadRequestError', 'expected a record {"problem", "solution" | "steps"} or a list of records');
  }
  const { prepared, tokens } = await prepareWithinTokens(
    many ? (body as unknown[]) : [body],
    (value) => prepare(context, value),
    (entry) => ('job' in entry ? entry.job.tokens : 0),
    context.options.maxRequestTokens,
    signal,
  );
  const answers = await Promise.all(
    prepared.map((entry) => ('job' in entry ? (context.batcher.submit(entry.job, signal) as Promise<Record<string, unknown>>) : { error: entry.error })),
  );
  context.metrics.promptTokens.add({ route: '/v1/score' }, tokens);
  for (const answer of answers) context.metrics.records.add({ route: '/v1/score', outcome: 'error' in answer ? 'error' : 'scored' });
  if (!many) return { status: 'error' in answers[0]! ? 422 : 200, body: JSON.stringify(answers[0]) };
  return { status: 200, body: `[${answers.map((answer, index) => JSON.stringify({ index, ...answer })).join(',')}]` };
}
