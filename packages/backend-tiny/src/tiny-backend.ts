import {
  BackendContractError,
  BackendWorkerError,
  capabilitiesOf,
  checkReadGradientShapes,
  resolveReadGradients,
  validateBackwardRequest,
  validateHvpRequest,
  validateForwardRequest,
  type BackendV1,
  type BackwardRequestV1,
  type BackwardResultV1,
  type Capabilities,
  type ForwardRequestV1,
  type ForwardResultV1,
  type HvpRequestV1,
  type HvpResultV1,
  type ModelInfoV1,
  type PrecisionV1,
} from '@reward-lens/spec';
import { cacheHandles, planRowCaches } from './cache-plan.js';
import { GradientEngine } from './gradients/gradient-engine.js';
import { runShardedPassInline } from './gradients/inline-pass.js';
import type { ShardedPass, ShardedPassResult } from './gradients/sharded-pass.js';
import { FlatParameters, planShards } from './gradients/shards.js';
import { packForward, runForwardSlice, sliceForward, type PackedForward, type TinyModel } from './model/forward.js';
import { assembleReads } from './model/read-plan.js';
import { createBarrier } from './threads/barrier.js';
import { runShardedPassOnPool } from './threads/pool-pass.js';
import type { ModelPayload } from './threads/protocol.js';
import { WorkerFailure, type PoolRun, type WorkerPool } from './threads/worker-pool.js';

/** The capabilities of the tiny backend: all of them (gradients and Hessian-vector products included). */
export const tinyBackendCapabilities: Capabilities = capabilitiesOf(
  'SCORES',
  'PREFIX_SCORES',
  'ACTIVATIONS',
  'GRADIENTS',
  'HVP',
  'LINEAR_READOUT',
  'STEP_SCORES',
);

/** The capabilities of a tiny backend over quantized weights: everything but gradients and Hessian-vector products. */
export const tinyForwardCapabilities: Capabilities = capabilitiesOf('SCORES', 'PREFIX_SCORES', 'ACTIVATIONS', 'LINEAR_READOUT', 'STEP_SCORES');

/** What a backend is made of (see `create-tiny-backend.ts`). */
export interface TinyBackendParts {
  model: TinyModel;
  /** The model's tensors by name: the arrays the weights are (a store's, or the caller's), which training updates in place. */
  tensors: ReadonlyMap<string, Float32Array>;
  description: string;
  threads: number;
  /** Rows per gradient shard, by real tokens (see `gradients/shards.ts`). */
  shardTokens: number;
  /** A forward pass is split across threads when each gets at least this many tokens. */
  sliceTokens: number;
  /** With more than one thread: the pool and how its workers load the model. */
  pool?: { pool: WorkerPool; load: ModelPayload };
}

let nextRequest = 1;

export class TinyBackend implements BackendV1 {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'tiny';
  readonly capabilities = tinyBackendCapabilities;
  readonly precision = 'fp32' as const;
  readonly supportsCache = true;
  readonly supportsCacheLengths = true;
  readonly info: ModelInfoV1;
  /** Threads the backend computes on: this one alone, or this many workers of the pool. */
  readonly threads: number;
  #model: TinyModel | null;
  readonly #tensors: ReadonlyMap<string, Float32Array>;
  readonly #shardTokens: number;
  readonly #sliceTokens: number;
  readonly #pool: WorkerPool | undefined;
  #poolModel: number | undefined;
  #gradients: GradientEngine | undefined;
  #flat: FlatParameters | undefined;

  constructor(parts: TinyBackendParts, info: ModelInfoV1) {
    this.#model = parts.model;
    this.#tensors = parts.tensors;
    this.threads = parts.threads;
    this.#shardTokens = parts.shardTokens;
    this.#sliceTokens = parts.sliceTokens;
    this.info = info;
    if (parts.pool) {
      this.#pool = parts.pool.pool;
      this.#poolModel = parts.pool.pool.register(parts.pool.load);
    }
  }

  #live(operation: string): TinyModel {
    if (this.#model === null) throw new BackendContractError(this.name, `${operation} was called after dispose()`);
    return this.#model;
  }

  #engine(model: TinyModel): GradientEngine {
    this.#gradients ??= new GradientEngine(model.weights.config, this.#tensors, model.kernels, model.rotary);
    this.#flat ??= new FlatParameters(this.#gradients.parameters.sizes);
    return this.#gradients;
  }

  async doForward(request: ForwardRequestV1): Promise<ForwardResultV1> {
    const model = this.#live('doForward');
    const realTokens = validateForwardRequest(this, request);
    const { numLayers, numKvHeads, headDim } = model.weights.config;
    const rowCaches = planRowCaches(this, request, realTokens, { numLayers, width: numKvHeads * headDim, shared: this.#pool !== undefined });
    const returnCache = request.returnCache === true;
    const packed = packForward(model.weights, request, rowCaches, returnCache);
    const slices = this.#pool ? Math.min(this.threads, Math.floor(packed.tokens / this.#sliceTokens)) : 1;
    const reads =
      slices > 1
        ? await this.#forwardOnPool(packed, slices, request)
        : assembleReads(packed.plans, [[0, packed.tokens]], [runForwardSlice(model, sliceForward(packed, 0, packed.tokens))]);
    return returnCache ? { reads, caches: cacheHandles(this, rowCaches, realTokens, request.cacheLengths) } : { reads };
  }

  async #forwardOnPool(packed: PackedForward, slices: number, request: ForwardRequestV1): Promise<ForwardResultV1['reads']> {
    const ranges = Array.from(
      { length: slices },
      (_, index) => [Math.round((index * packed.tokens) / slices), Math.round(((index + 1) * packed.tokens) / slices)] as const,
    );
    const barrier = createBarrier();
    const model = this.#poolModel!;
    const results = await this.#onPool<Float32Array[][]>(`doForward of ${request.batchSize} row(s), ${packed.tokens} tokens`, slices, (run) => {
      run.track(barrier);
      return Promise.all(
        ranges.map(([start, end], worker) =>
          run.call<Float32Array[]>(worker, { type: 'forward', model, slice: sliceForward(packed, start, end), barrier, participants: slices }),
        ),
      );
    });
    return assembleReads(packed.plans, ranges, results);
  }

  /** Runs on the pool; a worker's failure becomes a `BackendWorkerError` naming the worker and the request. */
  async #onPool<T>(description: string, threads: number, body: (run: PoolRun) => Promise<T>): Promise<T> {
    const request = `${description} (request ${nextRequest++})`;
    try {
      return await this.#pool!.run(this.#poolModel!, threads, body);
    } catch (error) {
      if (error instanceof WorkerFailure) throw new BackendWorkerError(this.name, error.worker, request, error.reason, { cause: error });
      throw error;
    }
  }

  async doBackward(request: BackwardRequestV1): Promise<BackwardResultV1> {
    const model = this.#live('doBackward');
    validateBackwardRequest(this, request);
    const result = await this.#sharded(model, 'doBackward', {
      request,
      shards: planShards(request, this.#shardTokens),
      targets: targetsOf(request),
      seedsOf: (reads) => resolveReadGradients(this, request, reads),
    });
    return {
      reads: result.reads,
      ...(result.parameters ? { parameters: result.parameters } : {}),
      ...(result.inputEmbeddings ? { inputEmbeddings: result.inputEmbeddings } : {}),
    };
  }

  async doHvp(request: HvpRequestV1): Promise<HvpResultV1> {
    const model = this.#live('doHvp');
    const engine = this.#engine(model);
    validateHvpRequest(this, request, engine.parameters.sizes);
    const { readHessianProduct } = request;
    const result = await this.#sharded(model, 'doHvp', {
      request,
      shards: planShards(request, this.#shardTokens),
      targets: targetsOf(request),
      direction: request.direction,
      seedsOf: (reads) => resolveReadGradients(this, request, reads),
      ...(readHessianProduct
        ? {
            seedTangentsOf: (reads, tangents) => {
              const product = readHessianProduct(reads, tangents);
              checkReadGradientShapes(this, request, product, reads, 'readHessianProduct');
              return product;
            },
          }
        : {}),
    });
    const gradients = {
      ...(result.parameters ? { parameters: result.parameters } : {}),
      ...(result.inputEmbeddings ? { inputEmbeddings: result.inputEmbeddings } : {}),
    };
    return { reads: result.reads, ...gradients, readTangents: result.readTangents!, hvp: result.hvp! };
  }

  /** A sharded gradient pass: on the pool when it has two shards or more to share out, else here. */
  async #sharded(model: TinyModel, operation: string, pass: ShardedPass): Promise<ShardedPassResult> {
    const engine = this.#engine(model);
    if (!this.#pool || pass.shards.length < 2) return runShardedPassInline(engine, this.#flat!, pass);
    const threads = Math.min(this.threads, pass.shards.length);
    const tokens = pass.shards.reduce((sum, shard) => sum + shard.tokens, 0);
    return this.#onPool(`${operation} of ${pass.request.batchSize} row(s), ${tokens} tokens in ${pass.shards.length} shards`, threads, (run) =>
      runShardedPassOnPool(run, this.#poolModel!, threads, this.#flat!, pass),
    );
  }

  async doUpdateParameters(parameters: ReadonlyMap<string, Float32Array>): Promise<void> {
    const { kernels } = this.#live('doUpdateParameters');
    for (const [name, values] of parameters) {
      const target = this.#tensors.get(name);
      if (!target) throw new BackendContractError(this.name, `doUpdateParameters names "${name}", which is not a parameter of this model`);
      if (values.length !== target.length) throw new BackendContractError(this.name, `"${name}" has ${target.length} values, got ${values.length}`);
    }
    if (kernels.prepareWeights && !kernels.refreshWeights) {
      throw new BackendContractError(this.name, `kernels "${kernels.name}" keep copies of the weights and cannot refresh them (no refreshWeights)`);
    }
    for (const [name, values] of parameters) {
      const target = this.#tensors.get(name)!;
      if (values !== target) target.set(values);
      kernels.refreshWeights?.(target);
    }
  }

  async dispose(): Promise<void> {
    this.#model = null;
    this.#gradients = undefined;
    if (this.#pool && this.#poolModel !== undefined) this.#pool.unregister(this.#poolModel);
    this.#poolModel = undefined;
  }
}

/** What a backward or HVP request asks to be returned (both blocks by default). */
function targetsOf(request: BackwardRequestV1): { parameters: boolean; inputEmbeddings: boolean } {
  return { parameters: request.wrt?.parameters ?? true, inputEmbeddings: request.wrt?.inputEmbeddings ?? true };
}

/** A tiny backend over quantized weights: its forward passes and caches, without `doBackward`, `doHvp` or `doUpdateParameters`. */
class ForwardOnlyTinyBackend implements BackendV1 {
  readonly specificationVersion = 'v1' as const;
  readonly name: string;
  readonly capabilities = tinyForwardCapabilities;
  readonly precision: PrecisionV1;
  readonly supportsCache: boolean;
  readonly supportsCacheLengths = true;
  readonly info: ModelInfoV1;
  readonly threads: number;
  readonly #backend: TinyBackend;

  constructor(backend: TinyBackend, precision: PrecisionV1) {
    this.#backend = backend;
    this.name = backend.name;
    this.precision = precision;
    this.supportsCache = backend.supportsCache;
    this.info = backend.info;
    this.threads = backend.threads;
  }

  doForward(request: ForwardRequestV1): Promise<ForwardResultV1> {
    return this.#backend.doForward(request);
  }

  dispose(): Promise<void> {
    return this.#backend.dispose();
  }
}

/** The backend without its gradient methods (see `tinyForwardCapabilities`), declaring `precision` (its products' over reduced weights). */
export function forwardOnly(backend: TinyBackend, precision: PrecisionV1): BackendV1 {
  return new ForwardOnlyTinyBackend(backend, precision);
}
