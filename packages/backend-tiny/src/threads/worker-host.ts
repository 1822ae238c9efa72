import { scalarKernels } from '../kernels/kernel-set.js';
import { wasmSimdKernelsOver } from '../kernels/wasm/wasm-simd-kernels.js';
import { gatherDecoderWeights } from '../model/decoder-weights.js';
import { runForwardSlice, type TinyModel } from '../model/forward.js';
import { createRotaryTables } from '../model/rotary-embedding.js';
import { GradientEngine, type ForwardRecord } from '../gradients/gradient-engine.js';
import { FlatParameters, addRange, type ShardRequest } from '../gradients/shards.js';
import type { TangentV1 } from '@reward-lens/spec';
import { abortBarrier, arriveAndWait } from './barrier.js';
import type { DirectionPayload, LoadModel, PoolJob, PoolMessage, PoolReply, ShardBackwardReply, ShardForwardReply } from './protocol.js';
import type { WorkerPort } from './thread-platform.js';
import { modelOverStore } from './weight-store.js';

interface LoadedModel {
  model: TinyModel;
  tensors: ReadonlyMap<string, Float32Array>;
  engine?: GradientEngine;
  flat?: FlatParameters;
  /** The recorded shards of the current gradient pass. */
  pass: number;
  records: Map<number, { request: ShardRequest; record: ForwardRecord; direction: TangentV1 | undefined }>;
}

/** A worker's side of the pool: loads models over shared weights and runs the jobs it is sent, one at a time. */
export function serveWorker(port: WorkerPort): void {
  const models = new Map<number, LoadedModel>();
  port.onMessage((data) => {
    const message = data as PoolMessage;
    if (message.type === 'load') {
      models.set(message.model, load(message));
      return;
    }
    if (message.type === 'unload') {
      models.delete(message.model);
      return;
    }
    let reply: PoolReply;
    const transfer: Transferable[] = [];
    try {
      reply = { call: message.call, ok: true, value: run(models, message, transfer) };
    } catch (error) {
      if (message.type === 'forward') abortBarrier(message.barrier);
      const failure = error instanceof Error ? error : new Error(String(error));
      const code = (failure as { code?: unknown }).code;
      reply = {
        call: message.call,
        ok: false,
        error: {
          name: failure.name,
          message: failure.message,
          ...(typeof code === 'string' ? { code } : {}),
          ...(failure.stack ? { stack: failure.stack } : {}),
        },
      };
      transfer.length = 0;
    }
    port.postMessage(reply, [...new Set(transfer)]);
  });
}

function load(message: LoadModel): LoadedModel {
  const buffers = message.kernels === 'wasm-simd' ? message.memories.map((memory) => memory.buffer) : [message.buffer];
  const { model: decoder, quantized } = modelOverStore(message.config, buffers, message.placements, message.quantizedPlacements);
  const weights = gatherDecoderWeights(decoder, quantized);
  let kernels = scalarKernels;
  if (message.kernels === 'wasm-simd') {
    const wasm = wasmSimdKernelsOver(message.memories, message.module);
    // Each weight is resident in the memory its placement names, at its offset there.
    const views = new Map<Float32Array | Uint8Array, number>();
    for (const [name, , , memory] of message.placements) views.set(decoder.tensors.get(name)!, memory);
    for (const [name, , , , , memory] of message.quantizedPlacements) views.set(quantized.get(name)!.bytes, memory);
    for (const [view, memory] of views) wasm.heaps[memory]!.adopt(view, view.byteOffset);
    kernels = wasm;
  }
  const { config } = weights;
  return {
    model: { weights, rotary: createRotaryTables(config.headDim, config.maxPositions, config.ropeTheta), kernels },
    tensors: decoder.tensors,
    pass: -1,
    records: new Map(),
  };
}

function loaded(models: Map<number, LoadedModel>, id: number): LoadedModel {
  const model = models.get(id);
  if (model === undefined) throw new Error(`model ${id} is not loaded in this worker`);
  return model;
}

function engineOf(model: LoadedModel): GradientEngine {
  const { config } = model.model.weights;
  model.engine ??= new GradientEngine(config, model.tensors, model.model.kernels, model.model.rotary);
  return model.engine;
}

function directionOf(payload: DirectionPayload | undefined, flat: FlatParameters): TangentV1 | undefined {
  if (payload === undefined) return undefined;
  const direction: TangentV1 = {};
  if (payload.parameters) {
    const views = flat.views(payload.parameters.flat);
    direction.parameters = new Map(payload.parameters.names.map((name) => [name, views.get(name)!]));
  }
  if (payload.inputEmbeddings) direction.inputEmbeddings = payload.inputEmbeddings;
  return direction;
}

function run(models: Map<number, LoadedModel>, job: PoolJob, transfer: Transferable[]): unknown {
  switch (job.type) {
    case 'forward': {
      const { model } = loaded(models, job.model);
      const results = runForwardSlice(model, job.slice, () => arriveAndWait(job.barrier, job.participants));
      for (const result of results) transfer.push(result.buffer);
      return results;
    }
    case 'shard-forward': {
      const model = loaded(models, job.model);
      const engine = engineOf(model);
      model.flat ??= new FlatParameters(engine.parameters.sizes);
      if (model.pass !== job.pass) {
        engine.beginPass();
        model.records.clear();
        model.pass = job.pass;
      }
      const reply: ShardForwardReply = { reads: [] };
      for (const shard of job.shards) {
        const direction = directionOf(shard.direction, model.flat);
        const record = engine.forwardRecord(shard.request, direction);
        model.records.set(shard.index, { request: shard.request, record, direction });
        reply.reads.push(record.reads);
        if (record.tangent) {
          reply.tangents ??= [];
          reply.tangents.push(record.tangent.reads);
        }
      }
      return reply;
    }
    case 'shard-backward': {
      const model = loaded(models, job.model);
      const flat = model.flat!;
      return job.shards.map((part) => {
        const entry = model.records.get(part.shard);
        if (model.pass !== job.pass || entry === undefined) throw new Error(`shard ${part.shard} of pass ${job.pass} was not recorded in this worker`);
        part.gradient?.fill(0);
        part.tangent?.fill(0);
        const into = part.gradient ? { gradients: flat.views(part.gradient), ...(part.tangent ? { tangents: flat.views(part.tangent) } : {}) } : undefined;
        const second = job.hvp ? { direction: entry.direction!, seedTangents: part.seedTangents } : undefined;
        const { primal, tangent } = engineOf(model).backwardRecord(entry.request, entry.record, part.seeds, job.targets, second, into);
        model.records.delete(part.shard);
        const reply: ShardBackwardReply = {};
        if (primal.inputEmbeddings) reply.inputEmbeddings = primal.inputEmbeddings;
        if (tangent?.inputEmbeddings) reply.tangentInputEmbeddings = tangent.inputEmbeddings;
        for (const rows of [reply.inputEmbeddings, reply.tangentInputEmbeddings]) for (const row of rows ?? []) transfer.push(row.buffer);
        return reply;
      });
    }
    case 'reduce': {
      for (const { total, addends, first } of job.sums) {
        addends.forEach((addend, index) => {
          if (first && index === 0) total.set(addend.subarray(job.from, job.to), job.from);
          else addRange(total, addend, job.from, job.to);
        });
      }
      return null;
    }
  }
}
