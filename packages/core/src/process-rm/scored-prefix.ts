import type { BackendV1, ReadRequestV1 } from '../backend/v1/backend-v1.js';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import { RewardLensError } from '../errors/reward-lens-error.js';
import type { ReadingRecipe } from '../recipes/reading-recipe.js';
import type { PrmTokenizer } from '../tokenizers/tokenizer.js';
import { activateScores } from './activate-scores.js';
import { SharedCheckpoint } from './shared-checkpoint.js';
import type { TokenizedPair } from './tokenize-pair.js';

/** What a scored prefix needs from its ProcessRM. */
export interface PrefixContext {
  backend: BackendV1;
  tokenizer: PrmTokenizer;
  recipe: ReadingRecipe;
  columns: number[] | undefined;
  /** Lays out the problem with these steps exactly as a full pass would. */
  tokenize: (problem: string, steps: readonly string[]) => TokenizedPair;
}

/**
 * A problem with the steps scored so far, whose keys and values the backend keeps. Extending it
 * by a step runs only the new tokens against the cached ones; the step scores equal those of one
 * full pass over the same steps. Extending leaves this prefix as it was, so several candidate
 * steps can extend it (`extendMany` scores them in one batch). Call `release()` when done.
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
  private readonly context: PrefixContext;
  private readonly ids: readonly number[];
  /** The cache of the latest step, linked to those of the steps before; held by this prefix. */
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
  ) {
    this.context = context;
    this.problem = problem;
    this.steps = steps;
    this.ids = ids;
    this.stepScores = stepScores;
    this.checkpoint = checkpoint;
  }

  /** The latest step's score (NaN before the first step). */
  get score(): number {
    return this.stepScores.length === 0 ? Number.NaN : this.stepScores[this.stepScores.length - 1]!;
  }

  /** Tokens covered by the cache. */
  get cachedTokens(): number {
    return this.checkpoint?.length ?? 0;
  }

  async extend(step: string): Promise<ScoredPrefix> {
    return (await this.extendMany([step]))[0]!;
  }

  /** Scores several candidate next steps in one forward pass, each from this prefix's cache. */
  async extendMany(candidates: readonly string[]): Promise<ScoredPrefix[]> {
    this.assertLive();
    if (candidates.length === 0) return [];
    const { backend, recipe } = this.context;
    const plans = candidates.map((step, index) => {
      if (typeof step !== 'string' || step.trim() === '') throw new InvalidInputError('a step must be a non-empty string', { location: `candidate ${index}` });
      const steps = [...this.steps, step];
      const pair = this.context.tokenize(this.problem, steps);
      const ids = Array.from(pair.inputIds);
      // Reuse the longest checkpoint whose tokens the new layout still starts with: a merge at the
      // old end (".\n" after a step that was last) can change the last few tokens.
      let common = 0;
      while (common < this.ids.length && common < ids.length && this.ids[common] === ids[common]) common++;
      const checkpoint = this.checkpoint && [...this.checkpoint.chain()].find((candidate) => candidate.length <= common && candidate.length < ids.length);
      const start = checkpoint?.length ?? 0;
      // Steps read before the reused cache keep their scores; the rest are read in this pass.
      const firstReread = pair.readPositions.findIndex((position) => position >= start);
      return { steps, pair, ids, checkpoint, start, firstReread };
    });

    const sequenceLength = Math.max(...plans.map((plan) => plan.ids.length - plan.start));
    const inputIds = new Int32Array(plans.length * sequenceLength);
    const attentionMask = new Uint8Array(plans.length * sequenceLength);
    plans.forEach((plan, row) => {
      inputIds.set(plan.ids.slice(plan.start), row * sequenceLength);
      attentionMask.fill(1, row * sequenceLength, row * sequenceLength + plan.ids.length - plan.start);
    });
    const read: ReadRequestV1 = {
      kind: 'head',
      head: recipe.head,
      positions: plans.map((plan) => plan.pair.readPositions.slice(plan.firstReread).map((position) => position - plan.start)),
      ...(this.context.columns ? { columns: this.context.columns } : {}),
    };
    const result = await backend.doForward({
      batchSize: plans.length,
      sequenceLength,
      inputIds,
      attentionMask,
      reads: [read],
      past: plans.map((plan) => plan.checkpoint?.cache ?? null),
      returnCache: true,
    });
    const { width, values } = result.reads[0]!;
    return plans.map((plan, row) => {
      const fresh = activateScores(values[row]!, plan.steps.length - plan.firstReread, width, recipe);
      const stepScores = new Float32Array(plan.steps.length);
      stepScores.set(this.stepScores.subarray(0, plan.firstReread));
      stepScores.set(fresh, plan.firstReread);
      // The new cache extends the reused checkpoint (and through it the earlier ones), shared, not forked.
      const cache = result.caches![row]!;
      const checkpoint = plan.checkpoint ? plan.checkpoint.extend(plan.ids.length, cache) : new SharedCheckpoint(plan.ids.length, cache, undefined);
      return new ScoredPrefix(this.context, this.problem, plan.steps, plan.ids, stepScores, checkpoint);
    });
  }

  /** An independent copy, to release separately; it shares the (read-only) caches, so nothing is copied. */
  fork(): ScoredPrefix {
    this.assertLive();
    return new ScoredPrefix(this.context, this.problem, this.steps, this.ids, this.stepScores.slice(), this.checkpoint?.hold());
  }

  /** Drops this prefix's hold on the cached keys and values (freed once no prefix shares them). Idempotent; extending afterwards throws. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.checkpoint?.drop();
    this.checkpoint = undefined;
  }

  private assertLive(): void {
    if (this.released) throw new RewardLensError('PREFIX_RELEASED', 'this scored prefix was released; fork it before releasing to keep extending');
  }
}
