import {
  decoderModelInfo,
  describeDecoder,
  type BackendV1,
  type CacheHandleV1,
  type ForwardRequestV1,
  type ForwardResultV1,
  type ReadRequestV1,
  type ReadResultV1,
  validateForwardRequest,
  capabilitiesOf,
  BackendContractError,
  validateDecoderModel,
  type DecoderModel,
} from '@reward-lens/spec';

import { referenceForward, type ReferenceRun } from './reference-decoder.js';
import { referenceHead } from './reference-head.js';

/** Runs kept per backend: the conformance kit reads the same sequences several times. */
const REMEMBERED_RUNS = 32;

/** A "cache" of the reference backend: the token ids it covers (the oracle recomputes from them). */
class ReferenceCacheHandle implements CacheHandleV1 {
  readonly specificationVersion = 'v1' as const;
  #ids: readonly number[] | null;

  constructor(
    readonly owner: ReferenceBackend,
    ids: readonly number[],
  ) {
    this.#ids = ids;
  }

  get length(): number {
    return this.#ids?.length ?? 0;
  }

  ids(): readonly number[] {
    if (this.#ids === null) throw new BackendContractError(this.owner.name, 'a released cache handle was used');
    return this.#ids;
  }

  fork(): CacheHandleV1 {
    return new ReferenceCacheHandle(this.owner, this.ids());
  }

  release(): void {
    this.#ids = null;
  }
}

class ReferenceBackend implements BackendV1 {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'reference';
  readonly capabilities = capabilitiesOf('SCORES', 'PREFIX_SCORES', 'STEP_SCORES', 'ACTIVATIONS', 'LINEAR_READOUT');
  /** Computes in float64; each output is rounded once to float32. */
  readonly precision = 'fp32' as const;
  readonly supportsCache = true;
  readonly supportsCacheLengths = true;
  readonly info;
  #model: DecoderModel | null;
  readonly #runs = new Map<string, ReferenceRun>();

  constructor(model: DecoderModel) {
    this.#model = model;
    this.info = decoderModelInfo(model.config, `${describeDecoder(model.config)} float64 reference`);
  }

  async doForward(request: ForwardRequestV1): Promise<ForwardResultV1> {
    const model = this.#model;
    if (model === null) throw new BackendContractError(this.name, 'doForward was called after dispose()');
    const pasts = Array.from({ length: request.batchSize }, (_, row) => {
      const past = request.past?.[row] ?? null;
      if (past !== null && !(past instanceof ReferenceCacheHandle && past.owner === this)) {
        throw new BackendContractError(this.name, `past[${row}] is not a cache handle made by this backend instance`);
      }
      return past;
    });
    validateForwardRequest(this, request);
    const { batchSize, sequenceLength, inputIds, attentionMask } = request;
    const rows = pasts.map((past, row) => {
      const pastIds = past?.ids() ?? [];
      const ids = [...pastIds];
      /** Index into `ids` of each column of the padded row (-1 for padding). */
      const indexOf = new Int32Array(sequenceLength).fill(-1);
      for (let column = 0; column < sequenceLength; column++) {
        const cell = row * sequenceLength + column;
        if (attentionMask[cell] === 1) {
          indexOf[column] = ids.length;
          ids.push(inputIds[cell]!);
        }
      }
      return { ids, indexOf, run: ids.length > pastIds.length ? this.#run(model, ids) : undefined };
    });
    const reads = request.reads.map((read) => this.#serve(model, read, rows));
    if (!request.returnCache) return { reads };
    const kept = (row: number, ids: number[]) => (request.cacheLengths ? ids.slice(0, request.cacheLengths[row]) : ids);
    return { reads, caches: rows.slice(0, batchSize).map((row, index) => new ReferenceCacheHandle(this, kept(index, row.ids))) };
  }

  async dispose(): Promise<void> {
    this.#model = null;
    this.#runs.clear();
  }

  #serve(model: DecoderModel, read: ReadRequestV1, rows: { indexOf: Int32Array; run: ReferenceRun | undefined }[]): ReadResultV1 {
    const { numLayers, hiddenSize } = model.config;
    const layer = read.kind === 'hidden' ? read.layer : (read.layer ?? numLayers);
    const width = read.kind === 'hidden' ? hiddenSize : (read.columns?.length ?? this.info.heads.find((head) => head.name === read.head)!.width);
    const values = read.positions.map((positions, row) => {
      const { indexOf, run } = rows[row]!;
      const out = new Float32Array(positions.length * width);
      positions.forEach((position, index) => {
        const state = run!.states[layer]![indexOf[position]!]!;
        out.set(read.kind === 'hidden' ? state : referenceHead(model, state, read.head, read.columns), index * width);
      });
      return out;
    });
    return { width, values };
  }

  #run(model: DecoderModel, ids: readonly number[]): ReferenceRun {
    const key = ids.join(',');
    const known = this.#runs.get(key);
    if (known) return known;
    const run = referenceForward(model, ids);
    if (this.#runs.size >= REMEMBERED_RUNS) this.#runs.delete(this.#runs.keys().next().value!);
    this.#runs.set(key, run);
    return run;
  }
}

/**
 * The float64 oracle as a `BackendV1`: every capability, a KV cache (handles keep the token ids
 * and the oracle recomputes), and results rounded once to float32. It is what the conformance
 * kit compares a backend with when the author names no reference, and a third party can run
 * it directly as ground truth. Slow on purpose (nested arrays, no reuse of any backend code):
 * meant for small models.
 *
 * @example
 * const reference = createReferenceBackend(createRandomDecoder({ seed: 1 }));
 * const prm = ProcessRM.fromBackend(reference, createByteBpeTokenizer());
 */
export function createReferenceBackend(model: DecoderModel): BackendV1 {
  validateDecoderModel(model, 'the reference model');
  return new ReferenceBackend(model);
}
