import type { DispatchRecorder } from '../device/dispatch-recorder.js';
import { BufferUsage } from '../device/gpu-constants.js';
import type { GpuRuntime } from '../device/gpu-runtime.js';
import { cacheBufferUsage, cacheByteLength, cacheByteOffset, type CacheLayout } from '../kv-cache.js';
import { upArguments, weightArguments, type KernelSet } from '../shaders/kernel-set.js';
import type { ForwardPlan, ReadPlan } from './forward-plan.js';
import type { GpuWeights } from './gpu-weights.js';

export interface ForwardContext {
  runtime: GpuRuntime;
  kernels: KernelSet;
  weights: GpuWeights;
}

/** What `recordForward` leaves behind: the result buffer, scratch to free, and per-row cache buffers. */
export interface RecordedForward {
  results: GPUBuffer;
  transient: GPUBuffer[];
  /** Per row, when caches are returned: `[layer][keys | values][past + count][kvWidth]`. */
  caches: GPUBuffer[] | null;
}

/** The cache buffer a row continues and the tokens it covers. */
export interface PastCache {
  buffer: GPUBuffer;
  length: number;
}

const scratchUsage = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;

/**
 * Records a whole forward pass into `recorder`: embedding lookup, the decoder layers (as deep as
 * the plan needs), and every read, gathered into one result buffer so that a single readback
 * serves them all. `pasts[row]` is the cache buffer a row continues (or null).
 *
 * Attention keys and values live in a per-layer cache buffer `[keys | values][rows][rowCapacity][kvWidth]`;
 * each row's past is copied in at the start and, with `returnCache`, each row's past and new
 * tokens are copied out into a buffer of its own at the end.
 */
export function recordForward(
  context: ForwardContext,
  recorder: DispatchRecorder,
  plan: ForwardPlan,
  pasts: readonly (PastCache | null)[] | null,
  returnCache: boolean,
): RecordedForward {
  const { runtime, kernels, weights } = context;
  const { config } = weights;
  const { hiddenSize, intermediateSize, numHeads, numKvHeads, headDim, rmsNormEps } = config;
  const shape = { numHeads, numKvHeads, headDim };
  const queryWidth = numHeads * headDim;
  const kvWidth = numKvHeads * headDim;
  const qkvStride = queryWidth + 2 * kvWidth;
  const layout: CacheLayout = { numLayers: config.numLayers, kvWidth };
  const tokens = plan.tokens;
  const batchSize = plan.rows.length;

  const transient: GPUBuffer[] = [];
  const scratch = (label: string, floats: number, bytesPerElement = 4): GPUBuffer => {
    const buffer = runtime.createBuffer(label, floats * bytesPerElement, scratchUsage);
    transient.push(buffer);
    return buffer;
  };
  const hidden = scratch('hidden states', tokens * hiddenSize);
  const normed = scratch('normed hidden states', tokens * hiddenSize);
  const results = scratch('read results', plan.resultLength);
  const tokenInfo = recorder.indices(plan.tokenInfo);

  const serveReads = (layer: number) => {
    for (const read of plan.reads) if (read.layer === layer && read.tokenIndices.length > 0) serveRead(read);
  };
  const serveRead = (read: ReadPlan) => {
    const indices = recorder.indices(read.tokenIndices);
    const rows = read.tokenIndices.length;
    const { request } = read;
    if (request.kind === 'hidden') {
      kernels.gather(
        recorder,
        { source: 'f32', target: 'f32' },
        { indices, source: hidden, output: results, rows, width: hiddenSize, outputOffset: read.resultOffset },
      );
      return;
    }
    // The head's compiled steps (`describeHead`): the final norm, hidden layers (ReLU fused), the output projection.
    const head = weights.heads.get(request.head)!;
    let x: GPUBuffer | undefined;
    let width = hiddenSize;
    head.steps.forEach((step, index) => {
      const last = index === head.steps.length - 1;
      if (step.op === 'rms-norm') {
        const out = scratch(`${head.name} norm`, rows * width);
        // The first step reads the chosen tokens straight out of the residual stream.
        kernels.rmsNorm(recorder, { input: x ?? hidden, weight: step.weight, output: out, ...(x ? {} : { indices }), rows, width, eps: step.eps });
        x = out;
        return;
      }
      if (!x) {
        x = scratch(`${head.name} input`, rows * width);
        kernels.gather(recorder, { source: 'f32', target: 'f32' }, { indices, source: hidden, output: x, rows, width });
      }
      let weight = step.weight;
      let bias = step.bias;
      let outFeatures = step.outFeatures;
      if (last && request.columns !== undefined) {
        // Only the chosen rows of the output projection are multiplied: an lm head over a large
        // vocabulary costs `columns.length` dot products per position.
        const columns = recorder.indices(Uint32Array.from(request.columns));
        outFeatures = request.columns.length;
        weight = scratch(`${head.name} columns`, outFeatures * step.inFeatures);
        kernels.gather(
          recorder,
          { source: 'f32', target: 'f32' },
          { indices: columns, source: step.weight, output: weight, rows: outFeatures, width: step.inFeatures },
        );
        if (step.bias) {
          bias = scratch(`${head.name} column biases`, outFeatures);
          kernels.gather(recorder, { source: 'f32', target: 'f32' }, { indices: columns, source: step.bias, output: bias, rows: outFeatures, width: 1 });
        }
      }
      const out = last ? results : scratch(`${head.name} layer ${index}`, rows * outFeatures);
      kernels.matmul(recorder, 'linear', {
        x,
        w: weight,
        out,
        bias,
        relu: step.relu,
        rows,
        columns: outFeatures,
        depth: step.inFeatures,
        ...(last ? { outOffset: read.resultOffset } : {}),
        weightType: 'f32',
      });
      x = out;
      width = outFeatures;
    });
  };

  kernels.gather(
    recorder,
    { source: weights.embedTokens.type, target: 'f32' },
    {
      indices: recorder.indices(plan.inputIds),
      source: weights.embedTokens.buffer,
      ...(weights.embedTokens.scales ? { sourceScales: weights.embedTokens.scales } : {}),
      output: hidden,
      rows: tokens,
      width: hiddenSize,
    },
  );
  serveReads(0);
  // Returning caches runs every layer (and a decoder has at least one), so no cache is due here.
  if (plan.layersToRun === 0) return { results, transient, caches: null };

  const qkv = scratch('qkv projections', tokens * qkvStride);
  const attention = scratch('attention output', tokens * queryWidth);
  const maxBinding = runtime.device.limits.maxStorageBufferBindingSize;
  const chunkRows = Math.max(1, Math.min(tokens, Math.floor(maxBinding / (intermediateSize * 4))));
  const mlp = scratch('mlp activations', chunkRows * intermediateSize);
  const queryBlocks = recorder.indices(plan.queryBlocks);
  const blockCount = plan.queryBlocks.length / 3;
  const rowStride = plan.rowCapacity * kvWidth;
  const valueBase = batchSize * rowStride;
  const hasPast = pasts?.some((past) => past !== null && past.length > 0);
  // One cache buffer reused by every layer unless keys must survive the layer (returned, or
  // sitting behind a past that is copied in up front).
  const perLayer = returnCache || hasPast;
  const layerCaches = Array.from({ length: perLayer ? plan.layersToRun : 1 }, (_, layer) => scratch(`attention cache ${layer}`, 2 * valueBase));
  if (pasts) {
    plan.rows.forEach((row, index) => {
      const past = pasts[index];
      for (let layer = 0; past && layer < plan.layersToRun && row.pastLength > 0; layer++) {
        for (const part of [0, 1] as const) {
          const target = (part * valueBase + index * rowStride) * 4;
          recorder.copy(past.buffer, cacheByteOffset(layout, past.length, layer, part), layerCaches[layer]!, target, row.pastLength * kvWidth * 4);
        }
      }
    });
  }

  for (let layer = 0; layer < plan.layersToRun; layer++) {
    const layerWeights = weights.layers[layer]!;
    const cache = layerCaches[perLayer ? layer : 0]!;
    kernels.rmsNorm(recorder, { input: hidden, weight: layerWeights.inputNorm, output: normed, rows: tokens, width: hiddenSize, eps: rmsNormEps });
    kernels.matmul(recorder, 'linear', {
      x: normed,
      ...weightArguments(layerWeights.qkvWeight),
      out: qkv,
      bias: layerWeights.qkvBias,
      rows: tokens,
      columns: qkvStride,
      depth: hiddenSize,
    });
    kernels.ropeScatter(recorder, shape, { qkv, tokenInfo, cos: weights.rotary.cos, sin: weights.rotary.sin, cache, tokens, rowStride, valueBase });
    kernels.attention(recorder, shape, { qkv, tokenInfo, blocks: queryBlocks, blockCount, cache, out: attention, rowStride, valueBase });
    kernels.matmul(recorder, 'linear', {
      x: attention,
      ...weightArguments(layerWeights.outputWeight),
      out: hidden,
      accumulate: true,
      rows: tokens,
      columns: hiddenSize,
      depth: queryWidth,
    });
    kernels.rmsNorm(recorder, { input: hidden, weight: layerWeights.postAttentionNorm, output: normed, rows: tokens, width: hiddenSize, eps: rmsNormEps });
    for (let start = 0; start < tokens; start += chunkRows) {
      const rows = Math.min(chunkRows, tokens - start);
      const xOffset = start * hiddenSize;
      kernels.matmul(recorder, 'swiglu', {
        x: normed,
        ...weightArguments(layerWeights.gateWeight),
        ...upArguments(layerWeights.upWeight),
        out: mlp,
        rows,
        columns: intermediateSize,
        depth: hiddenSize,
        xOffset,
      });
      kernels.matmul(recorder, 'linear', {
        x: mlp,
        ...weightArguments(layerWeights.downWeight),
        out: hidden,
        accumulate: true,
        rows,
        columns: hiddenSize,
        depth: intermediateSize,
        outOffset: xOffset,
      });
    }
    serveReads(layer + 1);
  }
  return { results, transient, caches: returnCache ? copyOutCaches() : null };

  function copyOutCaches(): GPUBuffer[] {
    return plan.rows.map((row, index) => {
      const length = row.pastLength + row.count;
      const buffer = runtime.createBuffer('kv cache', cacheByteLength(layout, length), cacheBufferUsage);
      for (let layer = 0; layer < config.numLayers; layer++) {
        for (const part of [0, 1] as const) {
          const source = (part * valueBase + index * rowStride) * 4;
          recorder.copy(layerCaches[layer]!, source, buffer, cacheByteOffset(layout, length, layer, part), length * kvWidth * 4);
        }
      }
      return buffer;
    });
  }
}
