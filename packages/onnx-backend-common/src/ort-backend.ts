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
} from '@reward-lens/spec';
import { planBatch, type BatchPlan } from './batch-plan.js';
import type { GraphLayout } from './graph-layout.js';
import { pastFeedData, rowsOfPresents, type KvShape } from './kv-tensors.js';
import { applyReadout, type ReadoutWeights } from './linear-readout.js';
import { BackendCacheHandle, ownCacheHandle } from '@reward-lens/spec/internal';
import { outputRows } from './output-rows.js';
import { planReadColumns, type ReadColumns } from './read-columns.js';
import { mergeRowGroups, planRowGroups, rowGroupRequest, type RunCost } from './row-groups.js';
import type { OrtSession, OrtTensor, OrtTensorConstructor } from './ort-module.js';
import type { ResolvedHead } from './resolve-model-info.js';
import type { KvArray, RowKeyValues } from './stored-row.js';

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
  /** Query heads, for the run's memory estimate. */
  attentionHeads: number;
  /** A batch estimated above this runs in row groups (see `planRowGroups`). */
  maxRunBytes: number;
}

type Outputs = Readonly<Record<string, OrtTensor>>;

/**
 * A `BackendV1` over one onnxruntime session, whichever runtime made it: feeds a padded batch
 * (with positions and the rows' pasts, as stored when they fit the feed, packed otherwise, and
 * each head's read positions when the graph takes them), fetches only what the reads need, and
 * serves the requested positions as views or copies (see `outputRows`).
 */
export class OrtBackend implements BackendV1 {
  readonly specificationVersion = 'v1' as const;
  #state: OrtBackendState | null;

  constructor(
    /** `onnx-node`, `onnx-web`: the registry name, used in contract errors. */
    readonly name: string,
    state: OrtBackendState,
    readonly info: ModelInfoV1,
    readonly capabilities: Capabilities,
    readonly supportsCache: boolean,
    /** `fp16` for a float16 graph; its declared precision sets the conformance tolerances. */
    readonly precision: 'fp32' | 'fp16' = 'fp32',
  ) {
    this.#state = state;
    this.supportsCacheLengths = supportsCache;
  }

  /** A row's cache may keep fewer tokens than it ran (`cacheLengths`): its present slots are cut when they are copied out. */
  readonly supportsCacheLengths: boolean;

  async doForward(request: ForwardRequestV1): Promise<ForwardResultV1> {
    const state = this.#state;
    if (state === null) throw new BackendContractError(this.name, 'doForward was called after dispose()');
    const realTokens = validateForwardRequest(this, request);
    this.#pastsOf(request);
    const groups = request.batchSize > 1 ? planRowGroups(request, this.#runCost(state, request), state.maxRunBytes) : [[0]];
    if (groups.length === 1) return this.#run(state, request, realTokens);
    // One group after another: a run's memory is returned before the next one starts.
    const results: ForwardResultV1[] = [];
    for (const rows of groups) {
      const group = rowGroupRequest(request, rows);
      results.push(await this.#run(state, group, validateForwardRequest(this, group)));
    }
    return mergeRowGroups(request.batchSize, groups, results);
  }

  /** Floats per token the graph computes at every position of a run, and the attention heads (see `RunCost`). */
  #runCost(state: OrtBackendState, request: ForwardRequestV1): RunCost {
    const { numLayers, hiddenSize } = this.info;
    // onnxruntime runs every node whatever is fetched: a per-token head is computed even when not read.
    let width = 0;
    for (const head of state.heads.values()) if (head.positionsInput === undefined) width += head.width;
    const hiddenLayers = new Set<number>();
    for (const read of request.reads) {
      if (read.kind === 'hidden') hiddenLayers.add(read.layer);
      else if (read.layer !== undefined && read.layer !== numLayers) hiddenLayers.add(read.layer);
    }
    width += hiddenLayers.size * hiddenSize;
    if (request.returnCache && state.kvShape) width += 2 * state.kvShape.layers * state.kvShape.kvHeads * state.kvShape.headDim;
    return { heads: state.attentionHeads, outputWidthPerToken: width };
  }

  async #run(state: OrtBackendState, request: ForwardRequestV1, realTokens: number[]): Promise<ForwardResultV1> {
    const pasts = this.#pastsOf(request);
    const plan = planBatch(
      request,
      realTokens,
      pasts.map((past, row) => (past === null ? 0 : request.past![row]!.length)),
      state.padding,
    );
    const returnCache = request.returnCache === true;

    const sources = this.#readSources(state, request, plan);
    const fetches = new Set<string>(sources.map((source) => source.output));
    if (returnCache) {
      for (let layer = 0; layer < this.info.numLayers; layer++) fetches.add(`present.${layer}.key`).add(`present.${layer}.value`);
    }
    if (fetches.size === 0) return { reads: [] };
    const outputs = await state.session.run(this.#feeds(state, plan, pasts, sources), [...fetches]);

    const reads = request.reads.map((read, index) => this.#serveRead(state, read, sources[index]!, outputs));
    if (!returnCache) return { reads };
    const presents: RowKeyValues = { keys: [], values: [] };
    for (let layer = 0; layer < this.info.numLayers; layer++) {
      presents.keys.push(outputs[`present.${layer}.key`]!.data as KvArray);
      presents.values.push(outputs[`present.${layer}.value`]!.data as KvArray);
    }
    const rows = rowsOfPresents(presents, plan, state.kvShape!, request.cacheLengths);
    const caches = rows.map(
      (row, index) => new BackendCacheHandle(this, row, request.cacheLengths?.[index] ?? plan.rowPastLengths[index]! + realTokens[index]!),
    );
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
      return ownCacheHandle<RowKeyValues>(this, past, row).data();
    });
  }

  #feeds(state: OrtBackendState, plan: BatchPlan, pasts: readonly (RowKeyValues | null)[], sources: readonly ReadSource[]): Record<string, OrtTensor> {
    const { batchSize, sequenceLength, pastLength } = plan;
    const { Tensor } = state;
    const feeds: Record<string, OrtTensor> = {
      input_ids: new Tensor('int64', plan.inputIds, [batchSize, sequenceLength]),
      attention_mask: new Tensor('int64', plan.attentionMask, [batchSize, pastLength + sequenceLength]),
    };
    if (state.layout.hasPositionIds) feeds.position_ids = new Tensor('int64', plan.positionIds, [batchSize, sequenceLength]);
    // Every head's positions are inputs, so a head nobody reads is fed column 0 of each row: one
    // position, not zero (a Reshape to a zero-length axis would read 0 as "keep this dimension").
    for (const head of state.heads.values()) {
      if (head.positionsInput === undefined) continue;
      const read = sources.find((source) => source.readColumns !== undefined && source.output === head.output)?.readColumns;
      feeds[head.positionsInput] = new Tensor('int64', read?.columns ?? new BigInt64Array(batchSize), [batchSize, read?.readLength ?? 1]);
    }
    const shape = state.kvShape;
    if (shape !== undefined) {
      const dims = [batchSize, shape.kvHeads, pastLength, shape.headDim];
      const past = pastFeedData(pasts, plan, shape);
      const tensor = (data: KvArray) => (data instanceof Uint16Array ? new Tensor('float16', data, dims) : new Tensor('float32', data, dims));
      for (let layer = 0; layer < shape.layers; layer++) {
        feeds[`past_key_values.${layer}.key`] = tensor(past.keys[layer]!);
        feeds[`past_key_values.${layer}.value`] = tensor(past.values[layer]!);
      }
    }
    return feeds;
  }

  /**
   * Where each read's values come from: the output to fetch and, per row, the cells of it to read.
   * A head of a graph with read positions is computed at the columns its reads ask for (the
   * union of them when a request reads one head twice); other reads come from the per-token head
   * or hidden-state outputs at the positions' columns.
   */
  #readSources(state: OrtBackendState, request: ForwardRequestV1, plan: BatchPlan): ReadSource[] {
    const { numLayers, hiddenSize } = this.info;
    const requestLength = request.sequenceLength;
    const columnCells = (positions: readonly (readonly number[])[]) =>
      positions.map((rowPositions, row) => rowPositions.map((position) => row * plan.sequenceLength + plan.columnOf[row * requestLength + position]!));
    const finalHeadReads = (head: string) =>
      request.reads.filter((read) => read.kind === 'head' && read.head === head && (read.layer === undefined || read.layer === numLayers));
    const columnsByHead = new Map<string, ReadColumns>();
    return request.reads.map((read) => {
      if (read.kind === 'hidden' || (read.layer !== undefined && read.layer !== numLayers)) {
        return { output: `hidden_states.${read.layer}`, stride: hiddenSize, cells: columnCells(read.positions) };
      }
      const head = state.heads.get(read.head)!;
      if (head.positionsInput === undefined) return { output: head.output, stride: head.width, cells: columnCells(read.positions) };
      const sameHead = finalHeadReads(read.head);
      let readColumns = columnsByHead.get(read.head);
      if (readColumns === undefined) {
        readColumns = planReadColumns(
          sameHead.map((candidate) => candidate.positions),
          plan,
          requestLength,
        );
        columnsByHead.set(read.head, readColumns);
      }
      const slots = readColumns.slotOf[sameHead.indexOf(read)]!;
      const cells = slots.map((rowSlots, row) => rowSlots.map((slot) => row * readColumns.readLength + slot));
      return { output: head.output, stride: head.width, cells, readColumns };
    });
  }

  /** Only the requested positions (and columns), as views where whole consecutive rows are read (see `outputRows`). */
  #serveRead(state: OrtBackendState, read: ReadRequestV1, source: ReadSource, outputs: Outputs): ReadResultV1 {
    const data = outputs[source.output]!.data as Float32Array | Uint16Array;
    const columns = read.kind === 'head' ? read.columns : undefined;
    const innerLayer = read.kind === 'head' && read.layer !== undefined && read.layer !== this.info.numLayers;
    if (!innerLayer) return { width: columns?.length ?? source.stride, values: outputRows(data, source.stride, source.cells, columns) };
    // An inner layer's hidden states through the final norm and the head, in JavaScript (LINEAR_READOUT).
    const readout = state.readout!;
    const hidden = outputRows(data, source.stride, source.cells, undefined);
    const values = hidden.map((rowHidden, row) => applyReadout(readout, read.head, rowHidden, source.cells[row]!.length, columns));
    return { width: columns?.length ?? state.heads.get(read.head)!.width, values };
  }
}

/** The output a read is served from and, per row, the cells `[cell, stride]` of it to read. */
interface ReadSource {
  output: string;
  stride: number;
  cells: number[][];
  /** Present when the output is a `read.*` output fed these columns. */
  readColumns?: ReadColumns;
}
