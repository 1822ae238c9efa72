import type { DecoderConfig, ReadGradientsV1, ReadResultV1 } from '@reward-lens/spec';
import type { GradientTargets } from '../gradients/gradient-engine.js';
import type { ShardRequest } from '../gradients/shards.js';
import type { ForwardSlice } from '../model/forward.js';
import type { QuantizedPlacement, TensorPlacement } from './weight-store.js';

/** The messages between the pool and its workers (structured-cloned; shared buffers stay shared). */

/** What a worker needs to run a model: its config, where its weights are, and the kernels over them. */
export type ModelPayload = {
  config: DecoderConfig;
  placements: TensorPlacement[];
  quantizedPlacements: QuantizedPlacement[];
} & ({ kernels: 'wasm-simd'; memories: WebAssembly.Memory[]; module: WebAssembly.Module } | { kernels: 'scalar'; buffer: SharedArrayBuffer });

/** Makes a model known to a worker. */
export type LoadModel = { type: 'load'; model: number } & ModelPayload;

/** A direction's tangents as a worker gets them: the parameters' in one shared flat array (only `names` are given), the rows' input embeddings. */
export interface DirectionPayload {
  parameters?: { flat: Float32Array; names: string[] };
  inputEmbeddings?: Float32Array[];
}

export type PoolJob =
  /** One slice of a forward pass; the workers of one pass meet at `barrier` in every layer. */
  | { type: 'forward'; model: number; slice: ForwardSlice; barrier: Int32Array; participants: number }
  /** Forward passes of shards, recorded for their backward passes (pass `pass`, which starts here on this worker). */
  | { type: 'shard-forward'; model: number; pass: number; shards: { index: number; request: ShardRequest; direction?: DirectionPayload }[] }
  /** Recorded shards' backward passes; each shard's parameter gradients go into its `gradient` (and `tangent`), shared flat arrays the worker zeroes first. */
  | {
      type: 'shard-backward';
      model: number;
      pass: number;
      targets: GradientTargets;
      hvp: boolean;
      shards: { shard: number; seeds: ReadGradientsV1; seedTangents?: ReadGradientsV1; gradient?: Float32Array; tangent?: Float32Array }[];
    }
  /** `total (=|+=) addends[0] + addends[1] + ...`, in that order, over `from..to`. */
  | { type: 'reduce'; sums: { total: Float32Array; addends: Float32Array[]; first: boolean }[]; from: number; to: number };

export type PoolMessage = LoadModel | { type: 'unload'; model: number } | (PoolJob & { call: number });

export interface ShardForwardReply {
  reads: ReadResultV1[][];
  tangents?: ReadResultV1[][];
}

export interface ShardBackwardReply {
  inputEmbeddings?: Float32Array[];
  tangentInputEmbeddings?: Float32Array[];
}

/** A worker's answer to a job. */
export type PoolReply =
  | { call: number; ok: true; value: unknown }
  | { call: number; ok: false; error: { name: string; message: string; code?: string; stack?: string } };
