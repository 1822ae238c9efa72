import { BufferUsage, MAX_WORKGROUPS_PER_DIMENSION } from './gpu-constants.js';
import { alignTo, type GpuRuntime } from './gpu-runtime.js';

/** A region of one of the recorder's upload arenas. */
export interface ArenaSlot {
  arena: 'uniform' | 'storage';
  offset: number;
  size: number;
}

/** What a binding points at: a whole buffer, a range of one, or an arena slot. */
export type BindingSource = GPUBuffer | { buffer: GPUBuffer; offset: number; size: number } | ArenaSlot;

type Step =
  | { kind: 'dispatch'; pipeline: GPUComputePipeline; bindings: BindingSource[]; workgroups: [number, number, number]; label: string }
  | { kind: 'copy'; source: GPUBuffer; sourceOffset: number; target: GPUBuffer; targetOffset: number; size: number };

/**
 * Records the steps of one submission, then encodes them. Kernel parameters and small index
 * lists go to two upload arenas (one uniform, one storage buffer, written once), so a forward
 * pass makes two uploads however many dispatches it has. Consecutive dispatches share one
 * compute pass; buffer copies sit between passes, in order.
 */
export class DispatchRecorder {
  readonly #runtime: GpuRuntime;
  readonly #steps: Step[] = [];
  readonly #uniforms: UploadArena;
  readonly #storage: UploadArena;

  constructor(runtime: GpuRuntime) {
    this.#runtime = runtime;
    // A uniform binding's size is a multiple of 16 bytes; a storage array's, of its 4-byte element.
    this.#uniforms = new UploadArena('uniform', runtime.device.limits.minUniformBufferOffsetAlignment, 16);
    this.#storage = new UploadArena('storage', runtime.device.limits.minStorageBufferOffsetAlignment, 4);
  }

  /** Kernel parameters: 32-bit words, as the shader's uniform struct lays them out. */
  uniform(words: Uint32Array): ArenaSlot {
    return this.#uniforms.place(words);
  }

  /** A read-only `array<u32>` (token ids, token indices, columns). */
  indices(values: Uint32Array): ArenaSlot {
    return this.#storage.place(values);
  }

  dispatch(label: string, pipeline: GPUComputePipeline, bindings: BindingSource[], workgroups: [number, number, number]): void {
    if (workgroups[0] * workgroups[1] * workgroups[2] === 0) return;
    this.#steps.push({ kind: 'dispatch', label, pipeline, bindings, workgroups });
  }

  copy(source: GPUBuffer, sourceOffset: number, target: GPUBuffer, targetOffset: number, size: number): void {
    if (size > 0) this.#steps.push({ kind: 'copy', source, sourceOffset, target, targetOffset, size });
  }

  /** Uploads the arenas and encodes every step. Returns the arena buffers, to free after the work. */
  encode(encoder: GPUCommandEncoder): GPUBuffer[] {
    const uniforms = this.#runtime.uploadBuffer('parameters', this.#uniforms.pack(), BufferUsage.UNIFORM);
    const storage = this.#runtime.uploadBuffer('index lists', this.#storage.pack(), BufferUsage.STORAGE);
    const { device } = this.#runtime;
    let pass: GPUComputePassEncoder | null = null;
    for (const step of this.#steps) {
      if (step.kind === 'copy') {
        pass?.end();
        pass = null;
        encoder.copyBufferToBuffer(step.source, step.sourceOffset, step.target, step.targetOffset, step.size);
        continue;
      }
      pass ??= encoder.beginComputePass();
      const entries = step.bindings.map((source, binding): GPUBindGroupEntry => {
        if ('arena' in source)
          return { binding, resource: { buffer: source.arena === 'uniform' ? uniforms : storage, offset: source.offset, size: source.size } };
        if ('buffer' in source) return { binding, resource: { buffer: source.buffer, offset: source.offset, size: source.size } };
        return { binding, resource: { buffer: source } };
      });
      pass.setPipeline(step.pipeline);
      pass.setBindGroup(0, device.createBindGroup({ label: step.label, layout: step.pipeline.getBindGroupLayout(0), entries }));
      pass.dispatchWorkgroups(...step.workgroups);
    }
    pass?.end();
    return [uniforms, storage];
  }
}

/** One upload arena: each chunk at the next offset the device's alignment allows, its size rounded up to `granule` bytes. */
class UploadArena {
  readonly #chunks: { offset: number; data: Uint32Array }[] = [];
  #length = 0;

  constructor(
    readonly arena: ArenaSlot['arena'],
    readonly alignment: number,
    readonly granule: number,
  ) {}

  place(data: Uint32Array): ArenaSlot {
    const offset = alignTo(this.#length, this.alignment);
    const size = alignTo(Math.max(data.byteLength, this.granule), this.granule);
    this.#chunks.push({ offset, data });
    this.#length = offset + size;
    return { arena: this.arena, offset, size };
  }

  /** The arena's contents, as one upload (at least one word, so that the buffer exists). */
  pack(): Uint32Array {
    const words = new Uint32Array(Math.max(1, Math.ceil(this.#length / 4)));
    for (const chunk of this.#chunks) words.set(chunk.data, chunk.offset / 4);
    return words;
  }
}

/**
 * A grid of `count` workgroups laid out so that no dimension passes the limit: shaders read
 * their index as `group.x + group.y * groups.x` (see `workgroupIndex` in the shaders).
 */
export function gridFor(count: number): [number, number, number] {
  if (count <= MAX_WORKGROUPS_PER_DIMENSION) return [count, 1, 1];
  return [MAX_WORKGROUPS_PER_DIMENSION, Math.ceil(count / MAX_WORKGROUPS_PER_DIMENSION), 1];
}

/** Packs kernel parameters: numbers as u32 words, `{ f32 }` as float bits. */
export function words(...values: (number | { f32: number })[]): Uint32Array {
  const result = new Uint32Array(values.length);
  const view = new DataView(result.buffer);
  values.forEach((value, index) => {
    if (typeof value === 'number') result[index] = value >>> 0;
    else view.setFloat32(index * 4, value.f32, true);
  });
  return result;
}
