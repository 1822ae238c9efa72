import type {} from './webgpu-types.js';
import {
  BackendContractError,
  capabilitiesOf,
  decoderModelInfo,
  describeDecoder,
  expectedTensorShapes,
  validateDecoderModel,
  validateForwardRequest,
  type BackendV1,
  type CacheHandleV1,
  type Capabilities,
  type DecoderModel,
  type ForwardRequestV1,
  type ForwardResultV1,
  type ModelInfoV1,
} from '@reward-lens/spec';
import { describeAdapterInfo } from './device/adapter-kind.js';
import { acquireDevice, type AcquireDeviceOptions } from './device/acquire-device.js';
import { DispatchRecorder } from './device/dispatch-recorder.js';
import { GpuRuntime } from './device/gpu-runtime.js';
import { BackendCacheHandle, heldFormat, ownCacheHandle } from '@reward-lens/spec/internal';
import { gpuCacheHolding, type CacheLayout } from './kv-cache.js';
import { recordForward, type ForwardContext, type PastCache } from './model/encode-forward.js';
import { planForward, splitResults } from './model/forward-plan.js';
import { uploadWeights } from './model/gpu-weights.js';
import { dtypeOf, type WebGpuDtype } from './model/weight-matrices.js';
import type { WeightType } from './shaders/shader-types.js';
import { compileKernelSet } from './shaders/kernel-set.js';

/** Where the device comes from (`AcquireDeviceOptions`, whose fp16 wish follows `precision`), and how the backend runs on it. */
export interface WebGpuBackendOptions extends Omit<AcquireDeviceOptions, 'wantShaderF16'> {
  /**
   * `fp16` stores weight matrices in half precision when the adapter has `shader-f16` (compute
   * stays f32); without the feature the backend runs fp32 and says so in `info.description`.
   * `bf16` stores them as bfloat16 on any adapter (pairs in 32-bit words, widened exactly in the
   * kernels); a loader's bf16 tensors are uploaded as they are, never widened. `dtype` says the same, and more.
   */
  precision?: 'fp32' | 'fp16' | 'bf16';
  /**
   * How the layers' matrices (and the embedding table unless a head reads it) are held, as spec's
   * quantization plan has it: `fp16` and `bf16` as `precision` says, `q8` (per output channel) and
   * `q4` (per block of 32; a matrix whose rows are not whole blocks is q8) as 8- and 4-bit
   * integers with float scales, dequantized exactly in the kernels. Over `precision`. Default: how
   * the model's tensors are held (a loader's `dtype`), else fp32.
   */
  dtype?: WebGpuDtype;
  /** How long a readback may take before the call rejects (default 120 000 ms). */
  timeoutMs?: number;
  /** Backend name (the registry's `webgpu-software` uses its own). Default `webgpu`. */
  name?: string;
}

/** Everything but gradients, as backend-tiny. */
export const webGpuBackendCapabilities: Capabilities = capabilitiesOf('SCORES', 'PREFIX_SCORES', 'ACTIVATIONS', 'LINEAR_READOUT', 'STEP_SCORES');

const heldAs: Record<WeightType, string> = {
  f32: 'fp32',
  f16: 'fp16 (IEEE half floats, each weight rounded to the nearest)',
  bf16: 'bf16 (16-bit brain floats, each weight rounded to the nearest)',
  q8: 'q8 (8-bit integers, one float scale per output channel)',
  q4: 'q4 (4-bit integers, one float scale per block of 32 weights)',
};

interface LoadedModel extends ForwardContext {
  layout: CacheLayout;
}

class WebGpuBackend implements BackendV1 {
  readonly specificationVersion = 'v1' as const;
  readonly name: string;
  readonly capabilities = webGpuBackendCapabilities;
  readonly precision: 'fp32' | 'fp16' | 'bf16';
  readonly supportsCache = true;
  readonly info: ModelInfoV1;
  /** The adapter the backend runs on, in words. */
  readonly adapterDescription: string;
  readonly runtime: GpuRuntime;
  #model: LoadedModel | null;

  constructor(name: string, model: LoadedModel, adapterDescription: string, note: string) {
    this.name = name;
    this.#model = model;
    this.runtime = model.runtime;
    this.adapterDescription = adapterDescription;
    const { config, weightType, weightTypes } = model.weights;
    this.precision = weightType === 'f16' ? 'fp16' : weightType === 'bf16' ? 'bf16' : 'fp32';
    const dtype = dtypeOf[weightType];
    // What the weights take on the GPU (the rotary tables, grown with the positions scored, apart).
    const parameters = [...expectedTensorShapes(config).values()].reduce((sum, shape) => sum + shape.reduce((product, size) => product * size, 1), 0);
    const perParameter = (model.weights.byteLength - model.weights.rotary.byteLength) / parameters;
    const info = decoderModelInfo(
      config,
      `${describeDecoder(config)} on ${adapterDescription}, ${dtype}${note}, ${perParameter.toFixed(2)} bytes/parameter on the GPU`,
    );
    const embedding = model.weights.embedTokens.type !== 'f32' ? ' and the embedding table' : '';
    const notes = [
      `backend "${name}" holds the projection weights${embedding} as ${heldAs[weightType]} on the GPU, ${weightType === 'q8' || weightType === 'q4' ? 'dequantized' : 'widened'} to f32 in its kernels; norms and heads stay float32, and scores differ from the fp32 model's`,
      ...(weightType === 'q4' && weightTypes.includes('q8')
        ? [`backend "${name}" holds some matrices as q8, not q4: their rows are not whole blocks of 32 weights`]
        : []),
    ];
    this.info = weightType === 'f32' ? info : { ...info, weightDtype: dtype, notes: [...(info.notes ?? []), ...notes] };
  }

  async doForward(request: ForwardRequestV1): Promise<ForwardResultV1> {
    const model = this.#model;
    if (model === null) throw new BackendContractError(this.name, 'doForward was called after dispose()');
    model.runtime.assertAlive();
    const realTokens = validateForwardRequest(this, request);
    const pasts = this.#pastsOf(request);
    const returnCache = request.returnCache === true;
    const plan = planForward(
      request,
      realTokens.map((_, row) => pasts?.[row]?.length ?? 0),
      model.weights.config,
      (head) => model.weights.heads.get(head)!.width,
    );
    // Positions run up to each row's past plus its tokens: the rotary tables must hold them before encoding.
    model.weights.rotary.ensure(Math.max(...plan.rows.map((row) => row.pastLength + row.count)));
    const made: { caches: GPUBuffer[] | null } = { caches: null };
    let bytes: ArrayBuffer;
    try {
      bytes = await model.runtime.submitAndRead('forward pass', (encoder) => {
        const recorder = new DispatchRecorder(model.runtime);
        const recorded = recordForward(model, recorder, plan, pasts, returnCache);
        made.caches = recorded.caches;
        const arenas = recorder.encode(encoder);
        return { source: recorded.results, byteLength: plan.resultLength * 4, transient: [...recorded.transient, ...arenas] };
      });
    } catch (error) {
      for (const buffer of made.caches ?? []) buffer.destroy();
      if (this.#model === null) throw new BackendContractError(this.name, 'the backend was disposed while a forward pass was running', { cause: error });
      throw error;
    }
    const reads = splitResults(plan, new Float32Array(bytes));
    if (!returnCache) return { reads };
    const handles: CacheHandleV1[] = (made.caches ?? []).map(
      (buffer, row) => new BackendCacheHandle(this, gpuCacheHolding(buffer, this.runtime), plan.rows[row]!.pastLength + plan.rows[row]!.count),
    );
    return { reads, caches: handles };
  }

  /** The buffers the rows continue, checked before any work: handles of this instance, not released. */
  #pastsOf(request: ForwardRequestV1): (PastCache | null)[] | null {
    if (!request.past) return null;
    return request.past.map((past, row) => {
      if (past === null) return null;
      const own = ownCacheHandle<GPUBuffer>(this, past, row);
      return { buffer: own.data(), length: own.length };
    });
  }

  async dispose(): Promise<void> {
    const model = this.#model;
    if (model === null) return;
    this.#model = null;
    for (const buffer of model.weights.buffers) buffer.destroy();
    model.weights.rotary.destroy();
    model.runtime.dispose();
  }
}

/**
 * A backend that runs a Llama / Mistral / Qwen2 decoder with WebGPU compute shaders: weights
 * uploaded once, batches packed to their real tokens, the KV cache kept on the GPU, and only
 * the requested positions read back (one mapping per forward).
 *
 * @example
 * const backend = await createWebGpuBackend(createRandomDecoder({ seed: 1 }), {
 *   gpu: await getNodeGpu({ software: true }), allowSoftwareAdapter: true,
 * });
 */
export async function createWebGpuBackend(model: DecoderModel, options: WebGpuBackendOptions = {}): Promise<BackendV1> {
  validateDecoderModel(model, 'weights', { quantized: true });
  const asked = options.dtype ?? options.precision ?? heldFormat(model) ?? 'fp32';
  const wantsF16 = asked === 'fp16';
  const acquired = await acquireDevice({ ...options, wantShaderF16: wantsF16 });
  const runtime = new GpuRuntime(acquired.device, { ownsDevice: acquired.ownsDevice, timeoutMs: options.timeoutMs ?? 120_000 });
  try {
    const dtype: WebGpuDtype = wantsF16 && !acquired.shaderF16 ? 'fp32' : asked;
    const note = wantsF16 && dtype === 'fp32' ? ' (fp16 was asked for, but the adapter lacks shader-f16)' : '';
    const weights = uploadWeights(runtime, model, dtype);
    const kernels = await compileKernelSet(runtime, weights.weightTypes, model.config.headDim, runtime.placeholder, weights.embedTokens.type).catch(
      (error: unknown) => {
        for (const buffer of weights.buffers) buffer.destroy();
        weights.rotary.destroy();
        throw error;
      },
    );
    const layout = { numLayers: model.config.numLayers, kvWidth: model.config.numKvHeads * model.config.headDim };
    return new WebGpuBackend(options.name ?? 'webgpu', { runtime, kernels, weights, layout }, describeAdapterInfo(acquired.info), note);
  } catch (error) {
    runtime.dispose();
    throw error;
  }
}
