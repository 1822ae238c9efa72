import { BackendResolutionError, type SkippedBackend } from '../errors/backend-resolution-error.js';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import { RewardLensError } from '../errors/reward-lens-error.js';
import { processWide } from '../process-wide.js';
import { unsupportedSourceReason, type ModelSource } from './model-source.js';
import { weightDtypes, type BackendV1, type WeightDtypeV1 } from './v1/backend-v1.js';

export interface BackendCreateOptions {
  /** Per-backend settings, under the backend's name (e.g. `{ 'onnx-node': { intraOpThreads: 1 } }`). */
  settings?: Record<string, unknown>;
  /**
   * CPU threads the backend may compute on: one meaning for every backend (backend-tiny's worker
   * threads, onnxruntime's intra-op threads); a backend's own setting for it wins. Absent: each
   * backend's default (every core). A backend that cannot use more says so in its description.
   */
  threads?: number;
  /**
   * How the backend is to hold the weights (`'fp32'` when absent): a backend quantizes 16- and
   * 32-bit weights to `q8` or `q4` as it loads them. `resolveBackend` skips any backend whose
   * registration does not list the dtype in `dtypes`, with that reason.
   */
  dtype?: WeightDtypeV1;
  /** Set by `resolveBackend`: the user named this backend (rather than `'auto'` choosing it). */
  requestedByName?: boolean;
}

/** How a backend is being considered. */
export interface BackendRequestContext {
  /** The user named this backend, so a slower fallback (a software GPU adapter, say) is acceptable. */
  requestedByName: boolean;
}

/**
 * A lazily loaded backend. `create` runs only when the backend is chosen, so registering costs
 * nothing; `unavailableReason` says why it cannot run a source here (or `null` when it can).
 */
export interface BackendRegistration {
  name: string;
  /** Higher is tried first by `'auto'`. */
  priority: number;
  /** Only chosen when asked for by name, never by `'auto'` (a software fallback adapter, say). */
  explicitOnly?: boolean;
  /**
   * The source kinds it runs (`['decoder']`, `['onnx', 'decoder']`, or a kind of its own). A source
   * of another kind is skipped with that reason before `unavailableReason` is asked. Absent: every
   * kind reaches `unavailableReason`.
   */
  sourceKinds?: readonly string[];
  /**
   * It runs decoder weights read into a weight arena where they lie (`createWeightArena` of
   * `@reward-lens/spec/internal`), holding no copy: loaders read a folder's weights into one when
   * this is the backend decoder weights go to (see `takesWeightArena`). A backend that copies
   * the weights elsewhere leaves it out, so that no view it keeps holds the whole arena alive.
   */
  takesWeightArena?: boolean;
  /** The weight dtypes it can hold a model in (`BackendCreateOptions.dtype`); absent: `['fp32']`. */
  dtypes?: readonly WeightDtypeV1[];
  unavailableReason(source: ModelSource, context: BackendRequestContext): Promise<string | null> | string | null;
  create(source: ModelSource, options: BackendCreateOptions): Promise<BackendV1>;
}

export interface ResolvedBackend {
  backend: BackendV1;
  /** Which backend ran and why each one before it was skipped. */
  notes: string[];
}

// Process-wide, so that a backend registered through another copy of core (CommonJS, another entry) is found here.
const registrations = processWide('backend-registrations.v1', () => new Map<string, BackendRegistration>());

/** Adds (or replaces) a backend factory. Returns a function that removes it again. */
export function registerBackend(registration: BackendRegistration): () => void {
  registrations.set(registration.name, registration);
  return () => {
    if (registrations.get(registration.name) === registration) registrations.delete(registration.name);
  };
}

export function registeredBackends(): BackendRegistration[] {
  return [...registrations.values()].sort((a, b) => b.priority - a.priority || a.name.localeCompare(b.name));
}

/**
 * The candidates tried for a request, in order: a pure function over the registrations,
 * tested on its own. A name gives that backend alone; `'auto'` gives every backend that is not
 * explicit-only, highest priority first.
 */
export function backendCandidates(requested: string, available: readonly BackendRegistration[]): BackendRegistration[] {
  if (requested !== 'auto') return available.filter((registration) => registration.name === requested);
  return available.filter((registration) => !registration.explicitOnly).sort((a, b) => b.priority - a.priority || a.name.localeCompare(b.name));
}

/**
 * Creates the requested backend, or with `'auto'` the first candidate that can run the source,
 * falling back in priority order. Throws one error listing every candidate and its reason.
 */
export async function resolveBackend(requested: string, source: ModelSource, options: BackendCreateOptions = {}): Promise<ResolvedBackend> {
  checkThreads(options.threads);
  checkDtype(options.dtype);
  const all = registeredBackends();
  const candidates = backendCandidates(requested, all);
  const skipped: SkippedBackend[] = [];
  if (candidates.length === 0) {
    const known = all.map((registration) => registration.name).join(', ') || 'none';
    const reason =
      requested === 'auto'
        ? `no backend is registered (import a backend's "register" entry, e.g. "@reward-lens/backend-tiny/register")`
        : `no backend named "${requested}" is registered (registered: ${known})`;
    throw new BackendResolutionError(requested, [{ name: requested, reason }]);
  }
  let lastError: unknown;
  for (const candidate of candidates) {
    let reason: string | null;
    try {
      reason =
        candidate.sourceKinds && !candidate.sourceKinds.includes(source.kind)
          ? unsupportedSourceReason(candidate.name, source, candidate.sourceKinds)
          : (unsupportedDtypeReason(candidate, options.dtype) ?? (await candidate.unavailableReason(source, { requestedByName: requested !== 'auto' })));
    } catch (error) {
      reason = `availability check failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (reason !== null) {
      skipped.push({ name: candidate.name, reason });
      continue;
    }
    try {
      const backend = await candidate.create(source, { ...options, requestedByName: requested !== 'auto' });
      const notes = [`backend "${candidate.name}" ran ${source.description}`, ...(backend.info?.notes ?? [])];
      for (const skip of skipped) notes.push(`backend "${skip.name}" skipped: ${skip.reason}`);
      return { backend, notes };
    } catch (error) {
      // A model that is itself broken fails the same way on every backend: report it, do not mask it.
      if (RewardLensError.hasCode(error, 'MODEL_LOAD')) throw error;
      lastError = error;
      skipped.push({ name: candidate.name, reason: `failed to start: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  throw new BackendResolutionError(requested, skipped, lastError === undefined ? undefined : { cause: lastError });
}

/** `threads` is a positive integer when given: checked before any backend is tried. */
export function checkThreads(threads: number | undefined): void {
  if (threads !== undefined && !(Number.isSafeInteger(threads) && threads >= 1)) {
    throw new InvalidInputError(`threads must be a positive integer, got ${threads}`);
  }
}

/** `dtype` is one of `weightDtypes` when given: checked before any backend is tried. */
export function checkDtype(dtype: unknown): asserts dtype is WeightDtypeV1 | undefined {
  if (dtype !== undefined && !weightDtypes.includes(dtype as WeightDtypeV1)) {
    throw new InvalidInputError(`dtype must be one of ${weightDtypes.join(', ')}, got ${JSON.stringify(dtype)}`);
  }
}

/** Why a registration cannot hold weights as `dtype` (null when it can: every backend holds fp32). */
export function unsupportedDtypeReason(registration: BackendRegistration, dtype: WeightDtypeV1 | undefined): string | null {
  const wanted = dtype ?? 'fp32';
  const supported = registration.dtypes ?? ['fp32'];
  return supported.includes(wanted) ? null : `it does not hold weights as ${wanted} (it holds ${supported.join(', ')})`;
}

/** What `resolveBackend` gets from loading options: the per-backend settings, the thread count and the weight dtype. */
export function backendCreateOptions(options: { backendSettings?: Record<string, unknown>; threads?: number; dtype?: WeightDtypeV1 }): BackendCreateOptions {
  return {
    ...(options.backendSettings ? { settings: options.backendSettings } : {}),
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    ...(options.dtype !== undefined ? { dtype: options.dtype } : {}),
  };
}
