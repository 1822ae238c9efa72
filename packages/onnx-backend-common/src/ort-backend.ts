import {
  BackendContractError,
  validateForwardRequest,
  type BackendV1,
  type Capabilities,
  type ForwardRequestV1,
  type ForwardResultV1,
  type ModelInfoV1,
  type ReadRequestV1,
  type ReadResultV1,
} from '@reward-lens/core/internal';
import { planBatch, type BatchPlan } from './batch-plan.js';
import type { GraphLayout } from './graph-layout.js';
import { pastFeedData, rowsOfPresents, type KvShape } from './kv-tensors.js';
import { applyReadout, type ReadoutWeights } from './linear-readout.js';
import { OnnxCacheHandle } from './onnx-cache-handle.js';
import type { OrtSession, OrtTensor, OrtTensorConstructor } from './ort-module.js';
import type { ResolvedHead } from './resolve-model-info.js';
import type { RowKeyValues } from './stored-row.js';

/** Everything a loaded backend holds; dropped (and the session released) on dispose. */
export interface OrtBackendState {
  session: OrtSession;
  Tensor: OrtTensorConstructor;
  layout: GraphLayout;
  heads: ReadonlyMap<string, ResolvedHead>;
  /** Present when the graph has `past_key_values.*` inputs. */
  kvShape: KvShape | undefined;
  readout: ReadoutWeights | undefined;
  padding: 'left' | 'right' | undefined;
}

type Outputs = Readonly<Record<string, OrtTensor>>;

/**
 * A `BackendV1` over one onnxruntime session, whichever runtime made it: feeds a padded batch
 * (with positions and the rows' pasts, as stored when they fit the feed, packed otherwise),
 * fetches only what the reads need, and copies out only the requested positions.
 */
export class OrtBackend implements BackendV1 {
  readonly specificationVersion = 'v1' as const;
  readonly precision = 'fp32' as const;
  #state: OrtBackendState | null;

  constructor(
    /** `onnx-node`, `onnx-web`: the registry name, used in contract errors. */
    readonly name: string,
    state: OrtBackendState,
    readonly info: ModelInfoV1,
    readonly capabilities: Capabilities,
    readonly supportsCache: boolean,
  ) {
    this.#state = state;
  }

  async doForward(request: ForwardRequestV1): Promise<ForwardResultV1> {
    const state = this.#state;
    if (state === null) throw new BackendContractError(this.name, 'doForward was called after dispose()');
    const realTokens = validateForwardRequest(this, request);
    const pasts = this.#pastsOf(request);
    const plan = planBatch(
      request,
      realTokens,
      pasts.map((past, row) => (past === null ? 0 : request.past![row]!.length)),
      state.padding,
    );
    const returnCache = request.returnCache === true;

    const fetches = new Set<string>();
    for (const read of request.reads) fetches.add(this.#outputFor(state, read));
    if (returnCache) {
      for (let layer = 0; layer < this.info.numLayers; layer++) fetches.add(`present.${layer}.key`).add(`present.${layer}.value`);
    }
    if (fetches.size === 0) return { reads: [] };
    const outputs = await state.session.run(this.#feeds(state, plan, pasts), [...fetches]);

    const reads = request.reads.map((read) => this.#serveRead(state, read, request.sequenceLength, plan, outputs));
    if (!returnCache) return { reads };
    const presents: RowKeyValues = { keys: [], values: [] };
    for (let layer = 0; layer < this.info.numLayers; layer++) {
      presents.keys.push(outputs[`present.${layer}.key`]!.data as Float32Array);
      presents.values.push(outputs[`present.${layer}.value`]!.data as Float32Array);
    }
    const rows = rowsOfPresents(presents, plan, state.kvShape!);
    const caches = rows.map((row, index) => new OnnxCacheHandle(this, row, plan.rowPastLengths[index]! + realTokens[index]!));
    return { reads, caches };
  }

  async dispose(): Promise<void> {
    const state = this.#state;
    this.#state = null;
    if (state !== null) await state.session.release();
  }

  /** Every handle is checked (ours, not released) before any work. */
  #pastsOf(request: ForwardRequestV1): (RowKeyValues | null)[] {
    return Array.from({ length: request.batchSize }, (_, row) => {
      const past = request.past?.[row] ?? null;
      if (past === null) return null;
      if (!(past instanceof OnnxCacheHandle) || past.owner !== this) {
        throw new BackendContractError(this.name, `past[${row}] is not a cache handle made by this backend instance`);
      }
      return past.data();
    });
  }

  /** The graph output a read comes from: a head's output, or the hidden states it is read from. */
  #outputFor(state: OrtBackendState, read: ReadRequestV1): string {
    if (read.kind === 'hidden') return `hidden_states.${read.layer}`;
    if (read.layer === undefined || read.layer === this.info.numLayers) return state.heads.get(read.head)!.output;
    return `hidden_states.${read.layer}`;
  }

  #feeds(state: OrtBackendState, plan: BatchPlan, pasts: readonly (RowKeyValues | null)[]): Record<string, OrtTensor> {
    const { batchSize, sequenceLength, pastLength } = plan;
    const { Tensor } = state;
    const feeds: Record<string, OrtTensor> = {
      input_ids: new Tensor('int64', plan.inputIds, [batchSize, sequenceLength]),
      attention_mask: new Tensor('int64', plan.attentionMask, [batchSize, pastLength + sequenceLength]),
    };
    if (state.layout.hasPositionIds) feeds.position_ids = new Tensor('int64', plan.positionIds, [batchSize, sequenceLength]);
    const shape = state.kvShape;
    if (shape !== undefined) {
      const dims = [batchSize, shape.kvHeads, pastLength, shape.headDim];
      const past = pastFeedData(pasts, plan, shape);
      for (let layer = 0; layer < shape.layers; layer++) {
        feeds[`past_key_values.${layer}.key`] = new Tensor('float32', past.keys[layer]!, dims);
        feeds[`past_key_values.${layer}.value`] = new Tensor('float32', past.values[layer]!, dims);
      }
    }
    return feeds;
  }

  /** Copies out only the requested positions (and columns). */
  #serveRead(state: OrtBackendState, read: ReadRequestV1, requestLength: number, plan: BatchPlan, outputs: Outputs): ReadResultV1 {
    const data = outputs[this.#outputFor(state, read)]!.data as Float32Array;
    const { hiddenSize, numLayers } = this.info;
    const finalHead = read.kind === 'head' && (read.layer === undefined || read.layer === numLayers);
    const stride = read.kind === 'head' && finalHead ? state.heads.get(read.head)!.width : hiddenSize;
    const columns = read.kind === 'head' ? read.columns : undefined;
    const gatherRow = (row: number, positions: readonly number[]): Float32Array => {
      const width = columns?.length ?? stride;
      const values = new Float32Array(positions.length * width);
      positions.forEach((position, index) => {
        const token = row * plan.sequenceLength + plan.columnOf[row * requestLength + position]!;
        if (columns === undefined) values.set(data.subarray(token * stride, (token + 1) * stride), index * width);
        else columns.forEach((column, offset) => (values[index * width + offset] = data[token * stride + column]!));
      });
      return values;
    };
    if (read.kind === 'hidden' || finalHead) {
      const values = read.positions.map((positions, row) => gatherRow(row, positions));
      return { width: columns?.length ?? stride, values };
    }
    // An inner layer's hidden states through the final norm and the head, in JavaScript (LINEAR_READOUT).
    const readout = state.readout!;
    const values = read.positions.map((positions, row) => {
      const hidden = new Float32Array(positions.length * hiddenSize);
      positions.forEach((position, index) => {
        const token = row * plan.sequenceLength + plan.columnOf[row * requestLength + position]!;
        hidden.set(data.subarray(token * hiddenSize, (token + 1) * hiddenSize), index * hiddenSize);
      });
      return applyReadout(readout, read.head, hidden, positions.length, columns);
    });
    return { width: columns?.length ?? state.heads.get(read.head)!.width, values };
  }
}
