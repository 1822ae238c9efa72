import type { DecoderConfig, ForwardRequestV1, ReadGradientsV1, ReadResultV1, TangentV1 } from '@reward-lens/spec';
import type { KernelSet } from '../kernels/kernel-set.js';
import type { RotaryTables } from '../model/rotary-embedding.js';
import { BufferPool } from './buffer-pool.js';
import { decoderParameters, type DecoderParameters } from './decoder-parameters.js';
import { headBackward, headForward, headTangent, hiddenStatesBackward, readHiddenStates, type HeadTangentTape, type HeadTape } from './head-dual.js';
import { layerBackward, layerForward, layerTangent, type PassContext } from './layer-dual.js';
import { createBackwardScratch, type LayerTape } from './layer-tape.js';
import { packBatch, planReads, splitByRow, joinRows, type PackedBatch, type PlannedRead } from './packed-batch.js';
import { productsOf } from './products.js';

/** A pass's request: a forward request, optionally with the vectors fed in instead of the token embeddings. */
type PassRequest = ForwardRequestV1 & { inputEmbeddings?: readonly Float32Array[] };

/** Which gradients a pass computes. */
export interface GradientTargets {
  parameters: boolean;
  inputEmbeddings: boolean;
}

/** Gradients in the spec's shape: by tensor name, and per row `[sequenceLength, hidden]`. */
export interface GradientBlocks {
  parameters?: Map<string, Float32Array>;
  inputEmbeddings?: Float32Array[];
}

export interface GradientPass {
  reads: ReadResultV1[];
  gradients: GradientBlocks;
}

export interface HvpPass extends GradientPass {
  readTangents: ReadResultV1[];
  hvp: GradientBlocks;
}

/** The forward pass's record: every block's tape and each read's head tape. */
export interface ForwardRecord {
  batch: PackedBatch;
  context: PassContext;
  plans: PlannedRead[];
  layers: LayerTape[];
  streams: Float32Array[];
  heads: (HeadTape | undefined)[];
  reads: ReadResultV1[];
  tangent?: { layers: LayerTape[]; streams: Float32Array[]; heads: (HeadTangentTape | undefined)[]; reads: ReadResultV1[] };
}

/**
 * Backpropagation through the decoder on a kernel set: gradients of any scalar function of a
 * forward pass's reads with respect to every parameter and the input embeddings, and exact
 * Hessian-vector products by forward-over-reverse differentiation (Pearlmutter's R-operator:
 * the forward pass carries tangents, the backward pass is differentiated along them).
 *
 * The tensors are read where they are (not copied), so a training step that updates them in
 * place is seen by the next pass (kernels holding copies must be refreshed by the caller).
 */
export class GradientEngine {
  readonly parameters: DecoderParameters;
  readonly #kernels: KernelSet;
  readonly #rotary: RotaryTables;
  readonly #pool = new BufferPool();

  constructor(config: DecoderConfig, tensors: ReadonlyMap<string, Float32Array>, kernels: KernelSet, rotary: RotaryTables) {
    this.parameters = decoderParameters(config, tensors);
    this.#kernels = kernels;
    this.#rotary = rotary;
  }

  /** One forward and one backward pass (the request validated by the caller; no caches). */
  backward(request: PassRequest, readGradients: (reads: readonly ReadResultV1[]) => ReadGradientsV1, targets: GradientTargets): GradientPass {
    this.beginPass();
    const record = this.forwardRecord(request, undefined);
    const seeds = readGradients(record.reads);
    const gradients = this.backwardRecord(request, record, seeds, targets, undefined);
    return { reads: record.reads, gradients: gradients.primal };
  }

  /** Forward with tangents along `direction`, then the backward pass and its tangent: `H·v`. */
  hvp(
    request: PassRequest,
    readGradients: (reads: readonly ReadResultV1[]) => ReadGradientsV1,
    direction: TangentV1,
    readHessianProduct: ((reads: readonly ReadResultV1[], tangents: readonly ReadResultV1[]) => ReadGradientsV1) | undefined,
    targets: GradientTargets,
  ): HvpPass {
    this.beginPass();
    const record = this.forwardRecord(request, direction);
    const tangentReads = record.tangent!.reads;
    const seeds = readGradients(record.reads);
    const seedTangents = readHessianProduct ? readHessianProduct(record.reads, tangentReads) : undefined;
    const { primal, tangent } = this.backwardRecord(request, record, seeds, targets, { direction, seedTangents });
    return { reads: record.reads, gradients: primal, readTangents: tangentReads, hvp: tangent! };
  }

  /**
   * Starts a pass over one or more shards: the buffers of the previous pass are reused from
   * here on, so every record of that pass must be done with.
   */
  beginPass(): void {
    this.#pool.recycle();
  }

  /**
   * A shard's forward pass (with tangents along `direction` for an HVP), recorded for its
   * backward pass: `record.reads` are its reads, `record.tangent?.reads` their tangents. Several
   * shards' records can be alive at once, until the next `beginPass`.
   */
  forwardRecord(request: PassRequest, direction: TangentV1 | undefined): ForwardRecord {
    return this.#forward(request, direction);
  }

  /**
   * A recorded shard's backward pass from `seeds` (and their tangents for an HVP). The
   * parameters' gradients (and their tangents) are added into `into` when given, buffers by
   * tensor name that the caller zeroed, else into fresh ones.
   */
  backwardRecord(
    request: PassRequest,
    record: ForwardRecord,
    seeds: ReadGradientsV1,
    targets: GradientTargets,
    second: { direction: TangentV1; seedTangents: ReadGradientsV1 | undefined } | undefined,
    into?: { gradients: Map<string, Float32Array>; tangents?: Map<string, Float32Array> },
  ): { primal: GradientBlocks; tangent?: GradientBlocks } {
    return this.#backward(request, record, seeds, targets, second, into);
  }

  #forward(request: PassRequest, direction: TangentV1 | undefined): ForwardRecord {
    const { config } = this.parameters;
    const { hiddenSize, rmsNormEps } = config;
    const batch = packBatch(request);
    const plans = planReads(request.reads, batch, request.sequenceLength, this.parameters);
    const context: PassContext = {
      config,
      kernels: this.#kernels,
      products: productsOf(this.#kernels),
      rotary: this.#rotary,
      tokens: batch.tokens,
      positionIds: batch.positionIds,
      spans: batch.spans,
      pool: this.#pool,
    };
    const tangentOf = (name: string) => direction?.parameters?.get(name) ?? null;
    const depth = plans.reduce((deepest, plan) => Math.max(deepest, plan.layer), 0);

    const embeddings = this.parameters.embedTokens.values;
    let stream = this.#pool.floats(batch.tokens * hiddenSize, false);
    const given = request.inputEmbeddings;
    if (given) {
      for (let cell = 0; cell < batch.packedIndex.length; cell++) {
        const token = batch.packedIndex[cell]!;
        if (token < 0) continue;
        const row = Math.floor(cell / request.sequenceLength);
        const column = cell - row * request.sequenceLength;
        stream.set(given[row]!.subarray(column * hiddenSize, (column + 1) * hiddenSize), token * hiddenSize);
      }
    } else {
      batch.ids.forEach((id, token) => stream.set(embeddings.subarray(id * hiddenSize, (id + 1) * hiddenSize), token * hiddenSize));
    }
    const streams = [stream];
    let streamTangent: Float32Array | undefined;
    const tangentStreams: Float32Array[] = [];
    if (direction) {
      streamTangent = this.#embeddingTangent(request, batch, direction);
      tangentStreams.push(streamTangent);
    }
    const layers: LayerTape[] = [];
    const tangentLayers: LayerTape[] = [];
    for (let layer = 0; layer < depth; layer++) {
      const forward = layerForward(context, this.parameters.layers[layer]!, stream);
      layers.push(forward.tape);
      stream = forward.output;
      streams.push(stream);
      if (streamTangent) {
        const tangent = layerTangent(context, this.parameters.layers[layer]!, forward.tape, streamTangent, tangentOf);
        tangentLayers.push(tangent.tape);
        streamTangent = tangent.output;
        tangentStreams.push(streamTangent);
      }
    }

    const heads: (HeadTape | undefined)[] = [];
    const tangentHeads: (HeadTangentTape | undefined)[] = [];
    const reads: ReadResultV1[] = [];
    const tangentReads: ReadResultV1[] = [];
    for (const plan of plans) {
      const source = streams[plan.layer]!;
      let values: Float32Array;
      let tangentValues: Float32Array | undefined;
      if (plan.head) {
        const columns = plan.request.kind === 'head' ? plan.request.columns : undefined;
        const tape = headForward(this.#kernels, plan.head, this.parameters.finalNorm.values, rmsNormEps, source, hiddenSize, plan.tokenIndices, columns);
        heads.push(tape);
        values = tape.output;
        if (direction) {
          const tangent = headTangent(context.products, plan.head, tape, this.parameters.finalNorm, tangentStreams[plan.layer]!, hiddenSize, tangentOf);
          tangentHeads.push(tangent);
          tangentValues = tangent.output;
        }
      } else {
        heads.push(undefined);
        tangentHeads.push(undefined);
        values = readHiddenStates(source, plan.tokenIndices, hiddenSize);
        if (direction) tangentValues = readHiddenStates(tangentStreams[plan.layer]!, plan.tokenIndices, hiddenSize);
      }
      reads.push({ width: plan.width, values: splitByRow(values, plan.counts, plan.width) });
      if (tangentValues) tangentReads.push({ width: plan.width, values: splitByRow(tangentValues, plan.counts, plan.width) });
    }
    return {
      batch,
      context,
      plans,
      layers,
      streams,
      heads,
      reads,
      ...(direction ? { tangent: { layers: tangentLayers, streams: tangentStreams, heads: tangentHeads, reads: tangentReads } } : {}),
    };
  }

  /** The embeddings' tangent: the direction's embedding-table rows plus its input-embedding tangents. */
  #embeddingTangent(request: PassRequest, batch: PackedBatch, direction: TangentV1): Float32Array {
    const { hiddenSize } = this.parameters.config;
    const tangent = this.#pool.floats(batch.tokens * hiddenSize);
    const table = request.inputEmbeddings ? undefined : direction.parameters?.get(this.parameters.embedTokens.name);
    if (table) batch.ids.forEach((id, token) => tangent.set(table.subarray(id * hiddenSize, (id + 1) * hiddenSize), token * hiddenSize));
    direction.inputEmbeddings?.forEach((rowTangent, row) => {
      for (let column = 0; column < request.sequenceLength; column++) {
        const token = batch.packedIndex[row * request.sequenceLength + column]!;
        if (token < 0) continue;
        for (let index = 0; index < hiddenSize; index++) {
          tangent[token * hiddenSize + index] = tangent[token * hiddenSize + index]! + rowTangent[column * hiddenSize + index]!;
        }
      }
    });
    return tangent;
  }

  #backward(
    request: PassRequest,
    record: ForwardRecord,
    seeds: ReadGradientsV1,
    targets: GradientTargets,
    second: { direction: TangentV1; seedTangents: ReadGradientsV1 | undefined } | undefined,
    into?: { gradients: Map<string, Float32Array>; tangents?: Map<string, Float32Array> },
  ): { primal: GradientBlocks; tangent?: GradientBlocks } {
    const { config, sizes } = this.parameters;
    const { hiddenSize } = config;
    const { batch, context, plans } = record;
    const gradientBuffers = targets.parameters ? (into?.gradients ?? zeroBuffers(sizes)) : undefined;
    const tangentBuffers = second && targets.parameters ? (into?.tangents ?? zeroBuffers(sizes)) : undefined;
    const gradientOf = (name: string) => gradientBuffers?.get(name) ?? null;
    const gradientTangentOf = (name: string) => tangentBuffers?.get(name) ?? null;
    const tangentOf = (name: string) => second?.direction.parameters?.get(name) ?? null;

    const dStream = this.#pool.floats(batch.tokens * hiddenSize);
    const dStreamTangent = second ? this.#pool.floats(batch.tokens * hiddenSize) : undefined;
    const inject = (layer: number) => {
      plans.forEach((plan, index) => {
        if (plan.layer !== layer) return;
        const total = plan.tokenIndices.length * plan.width;
        const dOutput = joinRows(seeds[index]!, total);
        const dOutputTangent = second?.seedTangents ? joinRows(second.seedTangents[index]!, total) : null;
        const tape = record.heads[index];
        if (plan.head && tape) {
          headBackward(
            context.products,
            plan.head,
            tape,
            this.parameters.finalNorm,
            dOutput,
            dStream,
            hiddenSize,
            gradientOf,
            dStreamTangent
              ? { tape: record.tangent!.heads[index]!, dOutput: dOutputTangent, dStream: dStreamTangent, tangentOf, gradientTangentOf }
              : undefined,
          );
        } else {
          hiddenStatesBackward(dStream, dOutput, plan.tokenIndices, hiddenSize);
          if (dStreamTangent && dOutputTangent) hiddenStatesBackward(dStreamTangent, dOutputTangent, plan.tokenIndices, hiddenSize);
        }
      });
    };

    const depth = record.layers.length;
    inject(depth);
    const scratch = createBackwardScratch(config, batch.tokens, this.#pool);
    const tangentScratch = second ? createBackwardScratch(config, batch.tokens, this.#pool) : undefined;
    for (let layer = depth - 1; layer >= 0; layer--) {
      layerBackward(
        context,
        this.parameters.layers[layer]!,
        record.layers[layer]!,
        dStream,
        gradientOf,
        scratch,
        dStreamTangent && tangentScratch
          ? { tape: record.tangent!.layers[layer]!, dStream: dStreamTangent, tangentOf, gradientTangentOf, scratch: tangentScratch }
          : undefined,
      );
      inject(layer);
    }

    const embeddingName = this.parameters.embedTokens.name;
    const scatterEmbeddings = (buffers: Map<string, Float32Array> | undefined, gradient: Float32Array) => {
      const table = buffers?.get(embeddingName);
      // Vectors fed in instead of the table's rows: the input did not use the table.
      if (!table || request.inputEmbeddings) return;
      batch.ids.forEach((id, token) => {
        for (let index = 0; index < hiddenSize; index++)
          table[id * hiddenSize + index] = table[id * hiddenSize + index]! + gradient[token * hiddenSize + index]!;
      });
    };
    scatterEmbeddings(gradientBuffers, dStream);
    const primal: GradientBlocks = {};
    if (gradientBuffers) primal.parameters = gradientBuffers;
    if (targets.inputEmbeddings) primal.inputEmbeddings = perRowEmbeddings(request, batch, dStream, hiddenSize);
    if (!second || !dStreamTangent) return { primal };
    scatterEmbeddings(tangentBuffers, dStreamTangent);
    const tangent: GradientBlocks = {};
    if (tangentBuffers) tangent.parameters = tangentBuffers;
    if (targets.inputEmbeddings) tangent.inputEmbeddings = perRowEmbeddings(request, batch, dStreamTangent, hiddenSize);
    return { primal, tangent };
  }
}

function zeroBuffers(sizes: ReadonlyMap<string, number>): Map<string, Float32Array> {
  return new Map([...sizes].map(([name, size]) => [name, new Float32Array(size)]));
}

/** Packed per-token vectors laid out per row as `[sequenceLength, hidden]`, zeros at padding. */
function perRowEmbeddings(request: ForwardRequestV1, batch: PackedBatch, packed: Float32Array, hiddenSize: number): Float32Array[] {
  return Array.from({ length: request.batchSize }, (_, row) => {
    const values = new Float32Array(request.sequenceLength * hiddenSize);
    for (let column = 0; column < request.sequenceLength; column++) {
      const token = batch.packedIndex[row * request.sequenceLength + column]!;
      if (token >= 0) values.set(packed.subarray(token * hiddenSize, (token + 1) * hiddenSize), column * hiddenSize);
    }
    return values;
  });
}
