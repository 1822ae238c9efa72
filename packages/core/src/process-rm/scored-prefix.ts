import { type CacheHandleV1, InvalidInputError, RewardLensError } from '@reward-lens/spec';

import type { PrmTokenizer } from '@reward-lens/tokenizers';
import { activateScores } from './activate-scores.js';
import { extendLikelihood } from './likelihood-bound.js';
import { runPrefixPass, type PassContext, type PassResult, type PassRow } from './prefix-pass.js';
import { SharedCheckpoint } from './shared-checkpoint.js';
import type { TokenizedPair } from './tokenize-pair.js';

/** What a scored prefix needs from its ProcessRM. */
export interface PrefixContext extends PassContext {
  tokenizer: PrmTokenizer;
  /** Lays out the problem with these steps exactly as a full pass would. */
  tokenize: (problem: string, steps: readonly string[]) => TokenizedPair;
  /** How many leading tokens of a layout no next step changes (`stableTokenCount`). */
  stableTokens: (pair: TokenizedPair) => number;
  /** How many leading tokens of a layout no first step changes (`headStableTokenCount`): what a prefix of no steps caches. */
  headStableTokens: (pair: TokenizedPair) => number;
}

/** The step a problem is laid out with to find the tokens of its layout that every first step keeps. */
const placeholderStep = 'a';

/** Per call of `extend`, `extendMany` and `extendAll`. */
export interface ExtendOptions {
  /** Aborts between forward passes with the signal's reason; caches made so far are released, the extended prefixes stay usable. */
  signal?: AbortSignal;
}

/** How one candidate is scored: from which checkpoint, and where its own checkpoint goes. */
interface ExtensionPlan {
  parent: ScoredPrefix;
  steps: string[];
  pair: TokenizedPair;
  ids: number[];
  /** The checkpoint it runs from (undefined: from the start), and its length. */
  checkpoint: SharedCheckpoint | undefined;
  start: number;
  /** Tokens no next step changes: the new checkpoint's length (at least `start`). */
  stable: number;
  /** The first step whose read position is run again (those before keep their scores). */
  firstReread: number;
}

/** A pass over the plan's tokens `[from, to)`, reading the read positions there. */
function passRow(plan: ExtensionPlan, from: number, to: number, past: CacheHandleV1 | null): PassRow {
  const reads = plan.pair.readPositions.slice(plan.firstReread).filter((position) => position >= from && position < to);
  return { tokens: plan.ids.slice(from, to), from, past, reads };
}

function concatenate(parts: readonly Float32Array[]): Float32Array {
  if (parts.length === 1) return parts[0]!;
  const joined = new Float32Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** What the passes over a set of plans gave: per plan, its head outputs and likelihood logits in pieces, and the caches of the stable tokens kept. */
interface PlansRun {
  values: Float32Array[][];
  logits: Float32Array[][];
  /** Per plan that ran stable tokens, the cache of its stable tokens (held for it). */
  caches: Map<number, CacheHandleV1>;
  width: number;
  likelihoodWidth: number;
}

/**
 * Every plan's new tokens in one round of passes, each row's returned cache cut at its stable
 * tokens (`cacheLengths`): the tokens after them are read but not kept, as the next step may
 * change them. One pass per batch, so an extension costs one read of the weights, not two.
 */
async function runInOnePass(context: PrefixContext, plans: readonly ExtensionPlan[], signal: AbortSignal | undefined): Promise<PlansRun> {
  const pass = await runPrefixPass(
    context,
    plans.map((plan) => ({ ...passRow(plan, plan.start, plan.ids.length, plan.checkpoint?.cache ?? null), keep: plan.stable })),
    true,
    signal,
  );
  const caches = new Map<number, CacheHandleV1>();
  plans.forEach((plan, index) => {
    // No stable token beyond the checkpoint: the checkpoint itself is the new prefix's cache.
    if (plan.stable > plan.start) caches.set(index, pass.caches[index]!);
    else pass.caches[index]!.release();
  });
  return {
    values: pass.values.map((values) => [values]),
    logits: plans.map((_, index) => (pass.likelihood[index] ? [pass.likelihood[index]!] : [])),
    caches,
    width: pass.width,
    likelihoodWidth: pass.likelihoodWidth,
  };
}

/**
 * For a backend that cannot cut a returned cache: the stable tokens first, whose caches are kept;
 * then the last ones (which the next step may change), read from those caches and not kept.
 */
async function runInTwoPasses(context: PrefixContext, plans: readonly ExtensionPlan[], signal: AbortSignal | undefined): Promise<PlansRun> {
  const stableRows = plans.flatMap((plan, index) => (plan.stable > plan.start ? [index] : []));
  const stable = await runPrefixPass(
    context,
    stableRows.map((index) => passRow(plans[index]!, plans[index]!.start, plans[index]!.stable, plans[index]!.checkpoint?.cache ?? null)),
    true,
    signal,
  );
  const caches = new Map(stableRows.map((plan, row) => [plan, stable.caches[row]!]));
  const values = plans.map((): Float32Array[] => []);
  const logits = plans.map((): Float32Array[] => []);
  stableRows.forEach((plan, row) => {
    values[plan]!.push(stable.values[row]!);
    if (stable.likelihood[row]) logits[plan]!.push(stable.likelihood[row]!);
  });
  const tailRows = plans.flatMap((plan, index) => (plan.ids.length > plan.stable ? [index] : []));
  let tail: PassResult;
  try {
    tail = await runPrefixPass(
      context,
      tailRows.map((index) =>
        passRow(plans[index]!, plans[index]!.stable, plans[index]!.ids.length, caches.get(index) ?? plans[index]!.checkpoint?.cache ?? null),
      ),
      false,
      signal,
    );
  } catch (error) {
    for (const cache of caches.values()) cache.release();
    throw error;
  }
  tailRows.forEach((plan, row) => {
    values[plan]!.push(tail.values[row]!);
    if (tail.likelihood[row]) logits[plan]!.push(tail.likelihood[row]!);
  });
  return { values, logits, caches, width: stable.width || tail.width, likelihoodWidth: stable.likelihoodWidth || tail.likelihoodWidth };
}

/**
 * A problem with the steps scored so far, whose keys and values the backend keeps. Extending it
 * by a step runs only the new tokens against the cached ones; the step scores equal those of one
 * full pass over the same steps. Extending leaves this prefix as it was, so several candidate
 * steps can extend it (`extendMany` scores them in one batch, `ScoredPrefix.extendAll` those of
 * several prefixes). Call `release()` when done.
 *
 * The cache covers the tokens that no next step can change (`cachedTokens`), which may stop short
 * of the prefix's last tokens (`tokenCount`): a tokenizer that merges a step's end with what
 * follows (a byte-level BPE writes `.` then `\n` as one `.\n` token) changes them, so an extension
 * runs them again with the new step's tokens, and nothing before them (`tokensRun`).
 *
 * @example
 * const root = await prm.prefix(problem);
 * const [a, b] = await root.extendMany(['Step A.', 'Step B.']);
 * a.score; // the reward after step A
 */
export class ScoredPrefix {
  readonly problem: string;
  readonly steps: readonly string[];
  /** One score per step; the last is `score`. */
  readonly stepScores: Float32Array;
  /** Tokens the backend ran to score this prefix from its parent's cache (0 for the problem alone). */
  readonly tokensRun: number;
  private readonly context: PrefixContext;
  private readonly ids: readonly number[];
  /** The cache of the stable tokens, linked to those of the steps before; held by this prefix. */
  private checkpoint: SharedCheckpoint | undefined;
  private released = false;

  /** @internal Use `ProcessRM.prefix`. `checkpoint` is held for this prefix by the caller. */
  constructor(
    context: PrefixContext,
    problem: string,
    steps: readonly string[],
    ids: readonly number[],
    stepScores: Float32Array,
    checkpoint: SharedCheckpoint | undefined,
    tokensRun = 0,
  ) {
    this.context = context;
    this.problem = problem;
    this.steps = steps;
    this.ids = ids;
    this.stepScores = stepScores;
    this.checkpoint = checkpoint;
    this.tokensRun = tokensRun;
  }

  /**
   * The problem alone, with the tokens of its layout that no first step changes run and cached
   * (one forward pass), so that every first step runs only its own tokens. Where the problem
   * cannot be laid out (the error then comes from `extend`) or the layout is truncated, nothing
   * is cached and the first extension runs from the start.
   */
  static async root(context: PrefixContext, problem: string, signal?: AbortSignal): Promise<ScoredPrefix> {
    const uncached = new ScoredPrefix(context, problem, [], [], new Float32Array(0), undefined);
    let pair: TokenizedPair;
    try {
      pair = context.tokenize(problem, [placeholderStep]);
    } catch (error) {
      if (RewardLensError.isInstance(error)) return uncached;
      throw error;
    }
    // Tokens wholly before the first step that no first step changes (BOS included).
    const stable = context.headStableTokens(pair);
    if (stable < 2 || pair.meta.truncatedTokens > 0) return uncached;
    const ids = Array.from(pair.inputIds.subarray(0, stable));
    const pass = await runPrefixPass(context, [{ tokens: ids, from: 0, past: null, reads: [stable - 1] }], true, signal);
    const likelihood = context.recipe.likelihoodHead
      ? extendLikelihood(ids, pair.steps[0]!.tokenSpan[0], 0, pass.likelihood[0]!, pass.likelihoodWidth, undefined).stateAt(stable)
      : undefined;
    return new ScoredPrefix(context, problem, [], ids, new Float32Array(0), new SharedCheckpoint(stable, pass.caches[0]!, undefined, likelihood), stable);
  }

  /** The latest step's score (NaN before the first step). */
  get score(): number {
    return this.stepScores.length === 0 ? Number.NaN : this.stepScores[this.stepScores.length - 1]!;
  }

  /** Tokens covered by the cache: those no next step can change. */
  get cachedTokens(): number {
    return this.checkpoint?.length ?? 0;
  }

  /** Tokens of the prefix as a full pass lays it out (BOS included). */
  get tokenCount(): number {
    return this.ids.length;
  }

  /** This prefix and one more step, scored from this prefix's cache. `signal` aborts between forward passes (the prefix stays usable). */
  async extend(step: string, options: ExtendOptions = {}): Promise<ScoredPrefix> {
    return (await this.extendMany([step], options))[0]!;
  }

  /** Scores several candidate next steps in one batch, each from this prefix's cache. */
  async extendMany(candidates: readonly string[], options: ExtendOptions = {}): Promise<ScoredPrefix[]> {
    return (await ScoredPrefix.extendAll([{ prefix: this, candidates }], options))[0]!;
  }

  /**
   * Scores candidate next steps of several prefixes of one ProcessRM together: the same batches
   * as one `extendMany` over them all, so a search iteration costs one round of forward passes
   * however many prefixes it extends (two on a backend that cannot cut a returned cache short:
   * the tokens to keep, then each candidate's last tokens).
   *
   * @example
   * const [children, others] = await ScoredPrefix.extendAll([{ prefix: a, candidates: ['x.', 'y.'] }, { prefix: b, candidates: ['z.'] }]);
   */
  static async extendAll(groups: readonly { prefix: ScoredPrefix; candidates: readonly string[] }[], options: ExtendOptions = {}): Promise<ScoredPrefix[][]> {
    options.signal?.throwIfAborted();
    const context = groups[0]?.prefix.context;
    const plans = groups.flatMap(({ prefix, candidates }, group) => {
      prefix.assertLive();
      if (prefix.context !== context) throw new InvalidInputError('prefixes extended together must come from one ProcessRM', { location: `prefix ${group}` });
      return candidates.map((step, index) => prefix.plan(step, groups.length === 1 ? `candidate ${index}` : `prefix ${group}, candidate ${index}`));
    });
    if (context === undefined || plans.length === 0) return groups.map(() => []);

    const { values, logits, caches, width, likelihoodWidth } =
      context.backend.supportsCacheLengths === true ? await runInOnePass(context, plans, options.signal) : await runInTwoPasses(context, plans, options.signal);

    const children = plans.map((plan, index) => {
      const fresh = activateScores(concatenate(values[index]!), plan.steps.length - plan.firstReread, width, context.recipe);
      // With a likelihood head, each fresh score is bounded by the solution's tokens up to its read position.
      const bound = context.recipe.likelihoodHead
        ? extendLikelihood(plan.ids, plan.pair.steps[0]!.tokenSpan[0], plan.start, concatenate(logits[index]!), likelihoodWidth, plan.checkpoint?.likelihood)
        : undefined;
      if (bound) {
        plan.pair.readPositions.slice(plan.firstReread).forEach((position, step) => {
          if (position >= 0 && !Number.isNaN(fresh[step]!)) fresh[step] = Math.min(fresh[step]!, bound.floors[position - plan.start]!);
        });
      }
      const stepScores = new Float32Array(plan.steps.length);
      stepScores.set(plan.parent.stepScores.subarray(0, plan.firstReread));
      stepScores.set(fresh, plan.firstReread);
      // The new cache extends the reused checkpoint (and through it the earlier ones), shared, not forked.
      const cache = caches.get(index);
      const state = bound?.stateAt(plan.stable);
      const checkpoint =
        cache === undefined
          ? plan.checkpoint?.hold()
          : plan.checkpoint
            ? plan.checkpoint.extend(plan.stable, cache, state)
            : new SharedCheckpoint(plan.stable, cache, undefined, state);
      return new ScoredPrefix(context, plan.parent.problem, plan.steps, plan.ids, stepScores, checkpoint, plan.ids.length - plan.start);
    });
    const starts = groups.map((_, group) => groups.slice(0, group).reduce((sum, { candidates }) => sum + candidates.length, 0));
    return groups.map(({ candidates }, group) => children.slice(starts[group], starts[group]! + candidates.length));
  }

  /** An independent copy, to release separately; it shares the (read-only) caches, so nothing is copied. */
  fork(): ScoredPrefix {
    this.assertLive();
    return new ScoredPrefix(this.context, this.problem, this.steps, this.ids, this.stepScores.slice(), this.checkpoint?.hold(), this.tokensRun);
  }

  /** Drops this prefix's hold on the cached keys and values (freed once no prefix shares them). Idempotent; extending afterwards throws. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.checkpoint?.drop();
    this.checkpoint = undefined;
  }

  private plan(step: string, location: string): ExtensionPlan {
    if (typeof step !== 'string' || step.trim() === '') throw new InvalidInputError('a step must be a non-empty string', { location });
    const steps = [...this.steps, step];
    const pair = this.context.tokenize(this.problem, steps);
    const ids = Array.from(pair.inputIds);
    // The new layout keeps this prefix's tokens up to `common`: those after the cached ones may
    // change (".\n" where a step was last), and a rare merge reaching further back is met by the
    // longest earlier checkpoint that still matches.
    let common = 0;
    while (common < this.ids.length && common < ids.length && this.ids[common] === ids[common]) common++;
    const stable = Math.min(this.context.stableTokens(pair), ids.length);
    const limit = Math.min(common, stable, ids.length - 1);
    const checkpoint = this.checkpoint && [...this.checkpoint.chain()].find((candidate) => candidate.length <= limit);
    const start = checkpoint?.length ?? 0;
    // Steps read before the reused cache keep their scores; the rest are read in this pass.
    const firstReread = pair.readPositions.findIndex((position) => position >= start);
    return { parent: this, steps, pair, ids, checkpoint, start, stable: Math.max(stable, start), firstReread };
  }

  private assertLive(): void {
    if (this.released) throw new RewardLensError('PREFIX_RELEASED', 'this scored prefix was released; fork it before releasing to keep extending');
  }
}
