import { WebGpuDeviceLostError } from '../errors/webgpu-device-lost-error.js';
import { WebGpuExecutionError } from '../errors/webgpu-execution-error.js';
import { BufferUsage, MapMode } from './gpu-constants.js';

/**
 * Compiled pipelines per device: backends that share a device compile each shader once
 * (compiling takes seconds on software adapters). Weak, so a dropped device takes its pipelines.
 */
const pipelinesByDevice = new WeakMap<GPUDevice, Map<string, Promise<GPUComputePipeline>>>();

export interface GpuRuntimeOptions {
  /** Destroy the device on dispose (true when this package created it). */
  ownsDevice: boolean;
  /** How long one readback (or pipeline compile) may take before it is abandoned. */
  timeoutMs: number;
}

/**
 * A device with the bookkeeping every call needs: pipelines compiled once, buffers made and
 * read back, and no promise left hanging. When the device is lost, pending and later calls
 * reject with {@link WebGpuDeviceLostError}; GPU work that never completes rejects after
 * `timeoutMs` with a {@link WebGpuExecutionError}.
 */
export class GpuRuntime {
  readonly device: GPUDevice;
  readonly #options: GpuRuntimeOptions;
  readonly #pipelines: Map<string, Promise<GPUComputePipeline>>;
  /** A small storage buffer to bind where a shader declares a buffer a call does not use. */
  readonly placeholder: GPUBuffer;
  readonly #lost: Promise<never>;
  #lostError: WebGpuDeviceLostError | null = null;
  #disposed = false;

  constructor(device: GPUDevice, options: GpuRuntimeOptions) {
    this.device = device;
    this.#options = options;
    let pipelines = pipelinesByDevice.get(device);
    if (!pipelines) {
      pipelines = new Map();
      pipelinesByDevice.set(device, pipelines);
    }
    this.#pipelines = pipelines;
    this.placeholder = device.createBuffer({ label: 'placeholder', size: 16, usage: BufferUsage.STORAGE });
    this.#lost = device.lost.then((info) => {
      this.#lostError ??= new WebGpuDeviceLostError(info.reason, info.message);
      throw this.#lostError;
    });
    // Nobody may be waiting when the device goes; the rejection is read through #lostError.
    this.#lost.catch(() => undefined);
  }

  /** The loss that ended this device, or null while it lives (our own dispose is not a loss). */
  get lostError(): WebGpuDeviceLostError | null {
    return this.#disposed ? null : this.#lostError;
  }

  /** Throws the device loss, if any. Call before starting work. */
  assertAlive(): void {
    const lost = this.lostError;
    if (lost) throw lost;
  }

  /** Waits for `promise`, unless the device is lost or `timeoutMs` passes first. */
  async guard<Result>(promise: Promise<Result>, what: string): Promise<Result> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new WebGpuExecutionError('timeout', `${what} did not finish within ${this.#options.timeoutMs} ms`)),
        this.#options.timeoutMs,
      );
    });
    try {
      return await Promise.race([promise, this.#lost, timeout]);
    } catch (error) {
      // A buffer mapping aborted by the loss rejects first on some implementations: report the loss.
      throw this.lostError ?? error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A compute pipeline for `code`, compiled once per key. Compile errors reject with their message. */
  pipeline(key: string, code: string): Promise<GPUComputePipeline> {
    let pipeline = this.#pipelines.get(key);
    if (!pipeline) {
      const module = this.device.createShaderModule({ label: key, code });
      const compiled = this.device
        .createComputePipelineAsync({ label: key, layout: 'auto', compute: { module, entryPoint: 'main' } })
        .catch(async (error: unknown) => {
          const info = await module.getCompilationInfo().catch(() => undefined);
          const messages = info?.messages.map((message) => `${message.lineNum}:${message.linePos} ${message.message}`).join('\n') ?? '';
          throw new WebGpuExecutionError('validation', `shader "${key}" failed to compile: ${messages || String(error)}`, { cause: error });
        });
      pipeline = this.guard(compiled, `compiling shader "${key}"`);
      this.#pipelines.set(key, pipeline);
      // A failure (a timeout, say) is not kept: the next backend on this device tries again.
      pipeline.catch(() => {
        if (this.#pipelines.get(key) === pipeline) this.#pipelines.delete(key);
      });
    }
    return pipeline;
  }

  createBuffer(label: string, byteLength: number, usage: number): GPUBuffer {
    return this.device.createBuffer({ label, size: alignTo(Math.max(byteLength, 4), 4), usage });
  }

  /** A buffer filled with `data` (padded to 4 bytes) at creation. */
  uploadBuffer(label: string, data: ArrayBufferView, usage: number): GPUBuffer {
    const buffer = this.device.createBuffer({ label, size: alignTo(Math.max(data.byteLength, 4), 4), usage, mappedAtCreation: true });
    new Uint8Array(buffer.getMappedRange()).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    buffer.unmap();
    return buffer;
  }

  /**
   * Encodes one submission with `build`, appends a copy of `byteLength` bytes of the buffer it
   * returns into a staging buffer, submits, maps the staging buffer once and returns a copy of
   * its bytes. Encoding and submission run synchronously inside validation and out-of-memory
   * error scopes (so concurrent calls cannot catch each other's errors); a reported error
   * rejects with its message. `transient` buffers are destroyed once the work is done.
   */
  async submitAndRead(what: string, build: (encoder: GPUCommandEncoder) => SubmissionOutput): Promise<ArrayBuffer> {
    this.assertAlive();
    const { device } = this;
    let staging: GPUBuffer | undefined;
    let transient: GPUBuffer[] = [];
    let byteLength = 0;
    let buildError: unknown;
    device.pushErrorScope('out-of-memory');
    device.pushErrorScope('validation');
    try {
      const encoder = device.createCommandEncoder({ label: what });
      const output = build(encoder);
      transient = output.transient;
      byteLength = output.byteLength;
      const size = alignTo(Math.max(byteLength, 4), 4);
      staging = device.createBuffer({ label: `${what}: readback`, size, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
      encoder.copyBufferToBuffer(output.source, 0, staging, 0, size);
      device.queue.submit([encoder.finish()]);
    } catch (error) {
      buildError = error;
    }
    const validation = device.popErrorScope();
    const memory = device.popErrorScope();
    try {
      const [validationError, memoryError] = await Promise.all([this.guard(validation, what), this.guard(memory, what)]);
      if (memoryError) throw new WebGpuExecutionError('out-of-memory', `${what}: ${memoryError.message}`);
      if (validationError) throw new WebGpuExecutionError('validation', `${what}: ${validationError.message}`);
      if (buildError !== undefined || !staging) throw buildError;
      await this.guard(staging.mapAsync(MapMode.READ), `reading back ${what}`);
      const bytes = staging.getMappedRange(0, alignTo(Math.max(byteLength, 4), 4)).slice(0, byteLength);
      staging.unmap();
      return bytes;
    } finally {
      staging?.destroy();
      for (const buffer of transient) buffer.destroy();
    }
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.placeholder.destroy();
    if (this.#options.ownsDevice) this.device.destroy();
  }
}

/** What a submission's encoder hands back: the buffer to read and the buffers to free afterwards. */
export interface SubmissionOutput {
  source: GPUBuffer;
  byteLength: number;
  transient: GPUBuffer[];
}

export function alignTo(value: number, alignment: number): number {
  return Math.ceil(value / alignment) * alignment;
}
