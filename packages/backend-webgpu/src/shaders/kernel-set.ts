import { gridFor, words, type BindingSource, type DispatchRecorder } from '../device/dispatch-recorder.js';
import type { GpuRuntime } from '../device/gpu-runtime.js';
import { MAX_WORKGROUPS_PER_DIMENSION } from '../device/gpu-constants.js';
import { attentionKey, attentionShader } from './attention.js';
import { gatherKey, gatherShader, type GatherVariant } from './gather-rows.js';
import { MATMUL_TILE, matmulKey, matmulShader, type MatmulKind, type MatmulVariant } from './matmul.js';
import { rmsNormKey, rmsNormShader, rmsNormWorkgroups } from './rms-norm.js';
import { ropeScatterKey, ropeScatterShader } from './rope-scatter.js';
import { hasScales, type WeightType } from './shader-types.js';

/** A weight matrix on the GPU: its buffer, how it is stored, and its scales (q8, q4). */
export interface WeightBuffer {
  buffer: GPUBuffer;
  type: WeightType;
  scales?: GPUBuffer;
}

/** A matmul's weight arguments for a `WeightBuffer`: `w`, how it is stored, and its scales. */
export function weightArguments(matrix: WeightBuffer): Pick<MatmulArguments, 'w' | 'weightType' | 'wScales'> {
  return { w: matrix.buffer, weightType: matrix.type, ...(matrix.scales ? { wScales: matrix.scales } : {}) };
}

/** A SwiGLU matmul's up-projection arguments for a `WeightBuffer` (held as the gate is). */
export function upArguments(matrix: WeightBuffer): Pick<MatmulArguments, 'up' | 'upScales'> {
  return { up: matrix.buffer, ...(matrix.scales ? { upScales: matrix.scales } : {}) };
}

export interface MatmulArguments {
  x: BindingSource;
  w: BindingSource;
  out: BindingSource;
  /** `linear`: add to `out` instead of overwriting it (a residual connection). */
  accumulate?: boolean;
  /** `linear`: a bias per output column. */
  bias?: BindingSource;
  /** `linear`: `max(0, ·)` after the bias (a ReLU hidden layer of a head). */
  relu?: boolean;
  /** `swiglu`: the up-projection (`w` is the gate), stored as `w` is. */
  up?: BindingSource;
  /** How `w` (and `up`) are stored: the kernel set's weight type when absent. */
  weightType?: WeightType;
  /** The scales of `w` and of `up`, for q8 and q4. */
  wScales?: BindingSource;
  upScales?: BindingSource;
  rows: number;
  columns: number;
  depth: number;
  xOffset?: number;
  outOffset?: number;
}

export interface AttentionShape {
  numHeads: number;
  numKvHeads: number;
  headDim: number;
}

/**
 * The compiled pipelines a model needs, behind typed helpers that record one dispatch each.
 * Compiled once per backend (see {@link compileKernelSet}), so encoding a forward is synchronous.
 */
export class KernelSet {
  readonly weightType: WeightType;
  readonly #pipelines: ReadonlyMap<string, GPUComputePipeline>;
  /** Bound where a shader declares a buffer this call does not use (a bias-free matmul). */
  readonly #placeholder: GPUBuffer;

  constructor(weightType: WeightType, pipelines: ReadonlyMap<string, GPUComputePipeline>, placeholder: GPUBuffer) {
    this.weightType = weightType;
    this.#pipelines = pipelines;
    this.#placeholder = placeholder;
  }

  #pipeline(key: string): GPUComputePipeline {
    const pipeline = this.#pipelines.get(key);
    if (!pipeline) throw new Error(`kernel "${key}" was not compiled for this model`);
    return pipeline;
  }

  matmul(recorder: DispatchRecorder, kind: MatmulKind, args: MatmulArguments): void {
    const weightType = args.weightType ?? this.weightType;
    const key = matmulKey({ weightType, kind });
    const params = recorder.uniform(
      words(args.rows, args.columns, args.depth, args.xOffset ?? 0, args.outOffset ?? 0, args.accumulate ? 1 : 0, args.bias ? 1 : 0, args.relu ? 1 : 0),
    );
    const scaled = hasScales(weightType);
    const weight = (buffer: BindingSource | undefined, scales: BindingSource | undefined, what: string): BindingSource[] => {
      if (!buffer) throw new Error(`a ${kind} matmul needs ${what}`);
      if (scaled && !scales) throw new Error(`a ${weightType} matmul needs the scales of ${what}`);
      return scaled ? [buffer, scales!] : [buffer];
    };
    const bindings =
      kind === 'swiglu'
        ? [params, args.x, args.out, ...weight(args.w, args.wScales, 'the gate projection'), ...weight(args.up, args.upScales, 'the up-projection')]
        : [params, args.x, args.out, args.bias ?? this.#placeholder, ...weight(args.w, args.wScales, 'its weights')];
    const rowTiles = Math.ceil(args.rows / MATMUL_TILE);
    const columnTiles = Math.ceil(args.columns / MATMUL_TILE);
    if (rowTiles > MAX_WORKGROUPS_PER_DIMENSION || columnTiles > MAX_WORKGROUPS_PER_DIMENSION) {
      throw new RangeError(`a ${args.rows}×${args.columns} matmul needs more than ${MAX_WORKGROUPS_PER_DIMENSION} tiles along one side`);
    }
    recorder.dispatch(key, this.#pipeline(key), bindings, [columnTiles, rowTiles, 1]);
  }

  rmsNorm(
    recorder: DispatchRecorder,
    args: {
      input: BindingSource;
      weight: BindingSource;
      output: BindingSource;
      indices?: BindingSource;
      rows: number;
      width: number;
      eps: number;
      inputOffset?: number;
      outputOffset?: number;
    },
  ): void {
    const key = rmsNormKey(args.indices !== undefined);
    const params = recorder.uniform(words(args.rows, args.width, args.inputOffset ?? 0, args.outputOffset ?? 0, { f32: args.eps }, 0, 0, 0));
    const bindings = [params, args.input, args.weight, args.output];
    if (args.indices) bindings.push(args.indices);
    recorder.dispatch(key, this.#pipeline(key), bindings, gridFor(rmsNormWorkgroups(args.rows)));
  }

  gather(
    recorder: DispatchRecorder,
    variant: GatherVariant,
    args: {
      indices: BindingSource;
      source: BindingSource;
      /** The source's scales, for a q8 or q4 source. */
      sourceScales?: BindingSource;
      output: BindingSource;
      rows: number;
      width: number;
      sourceOffset?: number;
      outputOffset?: number;
    },
  ): void {
    const key = gatherKey(variant);
    const params = recorder.uniform(words(args.rows, args.width, args.sourceOffset ?? 0, args.outputOffset ?? 0));
    if (hasScales(variant.source) && !args.sourceScales) throw new Error(`a ${variant.source} gather needs the source's scales`);
    const bindings = [params, args.indices, args.output, args.source, ...(args.sourceScales ? [args.sourceScales] : [])];
    recorder.dispatch(key, this.#pipeline(key), bindings, gridFor(args.rows));
  }

  ropeScatter(
    recorder: DispatchRecorder,
    shape: AttentionShape,
    args: { qkv: GPUBuffer; tokenInfo: BindingSource; cos: GPUBuffer; sin: GPUBuffer; cache: GPUBuffer; tokens: number; rowStride: number; valueBase: number },
  ): void {
    const { numHeads, numKvHeads, headDim } = shape;
    const kvWidth = numKvHeads * headDim;
    const params = recorder.uniform(
      words(args.tokens, numHeads, numKvHeads, headDim / 2, numHeads * headDim + 2 * kvWidth, kvWidth, args.rowStride, args.valueBase),
    );
    const bindings = [params, args.qkv, args.tokenInfo, args.cos, args.sin, args.cache];
    recorder.dispatch(ropeScatterKey, this.#pipeline(ropeScatterKey), bindings, gridFor(args.tokens));
  }

  attention(
    recorder: DispatchRecorder,
    shape: AttentionShape,
    args: {
      qkv: GPUBuffer;
      tokenInfo: BindingSource;
      blocks: BindingSource;
      blockCount: number;
      cache: GPUBuffer;
      out: GPUBuffer;
      rowStride: number;
      valueBase: number;
    },
  ): void {
    const { numHeads, numKvHeads, headDim } = shape;
    const kvWidth = numKvHeads * headDim;
    const key = attentionKey(headDim);
    const params = recorder.uniform(
      words(args.blockCount, numHeads / numKvHeads, numHeads * headDim + 2 * kvWidth, kvWidth, args.rowStride, args.valueBase, numHeads * headDim, {
        f32: 1 / Math.sqrt(headDim),
      }),
    );
    const [blockGroups, blockLayers] = gridFor(args.blockCount);
    recorder.dispatch(key, this.#pipeline(key), [params, args.qkv, args.tokenInfo, args.blocks, args.cache, args.out], [numHeads, blockGroups, blockLayers]);
  }
}

/**
 * Every shader a decoder with this head size runs, by key: a matmul of each kind for each weight
 * type its layers hold (`weightTypes`: a q4 model holds some matrices as q8), a float32 linear one
 * for the heads (they stay float32), and the gathers from f32 and from the embedding table's type.
 */
export function kernelSources(weightTypes: readonly WeightType[], headDim: number, embeddingType: WeightType = weightTypes[0]!): Map<string, string> {
  const sources = new Map<string, string>();
  const matmuls: MatmulVariant[] = weightTypes.flatMap((weightType) => [
    { weightType, kind: 'linear' as const },
    { weightType, kind: 'swiglu' as const },
  ]);
  if (!weightTypes.includes('f32')) matmuls.push({ weightType: 'f32', kind: 'linear' });
  for (const variant of matmuls) sources.set(matmulKey(variant), matmulShader(variant));
  const gathers: GatherVariant[] = [{ source: 'f32', target: 'f32' }, ...(embeddingType === 'f32' ? [] : [{ source: embeddingType, target: 'f32' as const }])];
  for (const variant of gathers) sources.set(gatherKey(variant), gatherShader(variant));
  for (const gather of [false, true]) sources.set(rmsNormKey(gather), rmsNormShader(gather));
  sources.set(ropeScatterKey, ropeScatterShader());
  sources.set(attentionKey(headDim), attentionShader(headDim));
  return sources;
}

/**
 * Compiles (in parallel) every kernel a model needs (see `kernelSources`; the first weight type
 * is the set's default); a shader that fails to compile rejects. Pipelines are cached per
 * device, so backends sharing a device compile once.
 */
export async function compileKernelSet(
  runtime: GpuRuntime,
  weightTypes: readonly WeightType[],
  headDim: number,
  placeholder: GPUBuffer,
  embeddingType: WeightType = weightTypes[0]!,
): Promise<KernelSet> {
  const entries = [...kernelSources(weightTypes, headDim, embeddingType)];
  const pipelines = await Promise.all(entries.map(([key, code]) => runtime.pipeline(key, code)));
  return new KernelSet(weightTypes[0]!, new Map(entries.map(([key], index) => [key, pipelines[index]!])), placeholder);
}
