import {
  BackendContractError,
  capabilitiesOf,
  checkReadGradientShapes,
  resolveReadGradients,
  validateBackwardRequest,
  validateHvpRequest,
  decoderModelInfo,
  describeDecoder,
  validateDecoderModel,
  validateForwardRequest,
  type BackendV1,
  type BackwardRequestV1,
  type BackwardResultV1,
  type Capabilities,
  type DecoderModel,
  type ForwardRequestV1,
  type ForwardResultV1,
  type HvpRequestV1,
  type HvpResultV1,
  type ModelInfoV1,
} from '@reward-lens/core';
import { cacheHandles, planRowCaches } from './cache-plan.js';
import { GradientEngine } from './gradients/gradient-engine.js';
import { createKernels, createKernelsAsync, type CreatedKernels, type KernelChoice } from './kernels/kernel-choice.js';
import type { KernelSet } from './kernels/kernel-set.js';
import { gatherDecoderWeights, type DecoderWeights } from './model/decoder-weights.js';
import { runForward, type TinyModel } from './model/forward.js';
import { createRotaryTables, type RotaryTables } from './model/rotary-embedding.js';

export interface TinyBackendOptions {
  /** Check every tensor's presence and size first (default true). */
  validate?: boolean;
  /**
   * The dense kernels to run on: `'auto'` (default) takes WebAssembly SIMD where the platform
   * has it and the scalar TypeScript kernels otherwise; `'wasm-simd'` or `'scalar'` insist
   * (an unavailable choice throws `BackendResolutionError`); or pass a `KernelSet` of your own.
   * `info.description` says which kernels run (`kernels=wasm-simd`).
   */
  kernels?: KernelChoice | KernelSet;
}

/** The capabilities of the tiny backend: all of them (gradients and Hessian-vector products included). */
export const tinyBackendCapabilities: Capabilities = capabilitiesOf(
  'SCORES',
  'PREFIX_SCORES',
  'ACTIVATIONS',
  'GRADIENTS',
  'HVP',
  'LINEAR_READOUT',
  'STEP_SCORES',
);

class TinyBackend implements BackendV1 {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'tiny';
  readonly capabilities = tinyBackendCapabilities;
  readonly precision = 'fp32' as const;
  readonly supportsCache = true;
  readonly info: ModelInfoV1;
  #model: TinyModel | null;
  readonly #tensors: ReadonlyMap<string, Float32Array>;
  #gradients: GradientEngine | undefined;

  constructor(model: PreparedModel, { kernels, description }: CreatedKernels) {
    this.#model = { weights: model.weights, rotary: model.rotary, kernels };
    this.#tensors = model.tensors;
    const { config } = model.weights;
    this.info = decoderModelInfo(config, `${describeDecoder(config)} kernels=${description}`);
  }

  #live(operation: string): TinyModel {
    if (this.#model === null) throw new BackendContractError(this.name, `${operation} was called after dispose()`);
    return this.#model;
  }

  #engine(model: TinyModel): GradientEngine {
    this.#gradients ??= new GradientEngine(model.weights.config, this.#tensors, model.kernels, model.rotary);
    return this.#gradients;
  }

  async doBackward(request: BackwardRequestV1): Promise<BackwardResultV1> {
    const model = this.#live('doBackward');
    validateBackwardRequest(this, request);
    const pass = this.#engine(model).backward(request, (reads) => resolveReadGradients(this, request, reads), targetsOf(request));
    return { reads: pass.reads, ...pass.gradients };
  }

  async doHvp(request: HvpRequestV1): Promise<HvpResultV1> {
    const model = this.#live('doHvp');
    const engine = this.#engine(model);
    validateHvpRequest(this, request, engine.parameters.sizes);
    const { readHessianProduct } = request;
    const pass = engine.hvp(
      request,
      (reads) => resolveReadGradients(this, request, reads),
      request.direction,
      readHessianProduct
        ? (reads, tangents) => {
            const product = readHessianProduct(reads, tangents);
            checkReadGradientShapes(this, request, product, reads, 'readHessianProduct');
            return product;
          }
        : undefined,
      targetsOf(request),
    );
    return { reads: pass.reads, ...pass.gradients, readTangents: pass.readTangents, hvp: pass.hvp };
  }

  async doUpdateParameters(parameters: ReadonlyMap<string, Float32Array>): Promise<void> {
    const { kernels } = this.#live('doUpdateParameters');
    if (kernels.prepareWeights && !kernels.refreshWeights) {
      throw new BackendContractError(this.name, `kernels "${kernels.name}" keep copies of the weights and cannot refresh them (no refreshWeights)`);
    }
    for (const [name, values] of parameters) {
      const target = this.#tensors.get(name);
      if (!target) throw new BackendContractError(this.name, `doUpdateParameters names "${name}", which is not a parameter of this model`);
      if (values.length !== target.length) throw new BackendContractError(this.name, `"${name}" has ${target.length} values, got ${values.length}`);
    }
    for (const [name, values] of parameters) {
      const target = this.#tensors.get(name)!;
      if (values !== target) target.set(values);
      kernels.refreshWeights?.(target);
    }
  }

  async doForward(request: ForwardRequestV1): Promise<ForwardResultV1> {
    const model = this.#live('doForward');
    const realTokens = validateForwardRequest(this, request);
    const { numLayers, numKvHeads, headDim } = model.weights.config;
    const rowCaches = planRowCaches(this, request, realTokens, { numLayers, width: numKvHeads * headDim });
    const returnCache = request.returnCache === true;
    const reads = runForward(model, request, rowCaches, returnCache);
    return returnCache ? { reads, caches: cacheHandles(this, rowCaches, realTokens) } : { reads };
  }

  async dispose(): Promise<void> {
    this.#model = null;
    this.#gradients = undefined;
  }
}

/** What a backward or HVP request asks to be returned (both blocks by default). */
function targetsOf(request: BackwardRequestV1): { parameters: boolean; inputEmbeddings: boolean } {
  return { parameters: request.wrt?.parameters ?? true, inputEmbeddings: request.wrt?.inputEmbeddings ?? true };
}

interface PreparedModel {
  weights: DecoderWeights;
  rotary: RotaryTables;
  /** The model's tensors by name: the arrays the weights are, which training updates in place. */
  tensors: ReadonlyMap<string, Float32Array>;
}

/**
 * A backend that runs a Llama / Mistral / Qwen2 decoder in TypeScript, its matrix products on
 * WebAssembly SIMD (float32 accumulation) where available, else in plain TypeScript (float64
 * accumulation); float32 storage. Bit-exact across batch compositions and padding sides.
 *
 * Synchronous, for Node and workers: where a browser's main thread refuses to compile the kernel
 * module synchronously (Chromium before 115 did above 4 KB), `'auto'` takes the scalar kernels
 * and says why; `createTinyBackendAsync` gets the SIMD ones on any thread.
 *
 * @example
 * const backend = createTinyBackend(createRandomDecoder({ seed: 1 }));
 * const { reads } = await backend.doForward({ batchSize: 1, sequenceLength: 3,
 *   inputIds: Int32Array.of(5, 6, 7), attentionMask: Uint8Array.of(1, 1, 1),
 *   reads: [{ kind: 'head', head: 'value', positions: [[0, 1, 2]] }] });
 */
export function createTinyBackend(model: DecoderModel, options: TinyBackendOptions = {}): BackendV1 {
  const prepared = prepareModel(model, options);
  return new TinyBackend(prepared, createKernels(options.kernels ?? 'auto', productWeights(prepared.weights)));
}

/**
 * `createTinyBackend` with the WebAssembly kernel module compiled and instantiated
 * asynchronously, which every thread allows: on a browser's main thread this is the way to the
 * SIMD kernels. The backend is the same, and so are its results.
 *
 * @example
 * const backend = await createTinyBackendAsync(createRandomDecoder({ seed: 1 }));
 * backend.info.description; // '... kernels=wasm-simd', in a page too
 */
export async function createTinyBackendAsync(model: DecoderModel, options: TinyBackendOptions = {}): Promise<BackendV1> {
  const prepared = prepareModel(model, options);
  return new TinyBackend(prepared, await createKernelsAsync(options.kernels ?? 'auto', productWeights(prepared.weights)));
}

/** The model's weights gathered (validated first unless told not to) and its rotary tables. */
function prepareModel(model: DecoderModel, options: TinyBackendOptions): PreparedModel {
  if (options.validate !== false) validateDecoderModel(model);
  const weights = gatherDecoderWeights(model);
  const { config } = weights;
  return { weights, rotary: createRotaryTables(config.headDim, config.maxPositions, config.ropeTheta), tensors: model.tensors };
}

/** Every matrix and bias the products use, for the kernels to prepare (upload) once. */
function productWeights(weights: DecoderWeights): Float32Array[] {
  const tensors = [
    ...weights.layers.flatMap((layer) => [
      layer.queryWeight,
      layer.keyWeight,
      layer.valueWeight,
      layer.queryBias,
      layer.keyBias,
      layer.valueBias,
      layer.outputWeight,
      layer.gateWeight,
      layer.upWeight,
      layer.downWeight,
    ]),
    ...[...weights.heads.values()].flatMap((head) => head.steps.flatMap((step) => (step.op === 'linear' ? [step.weight, step.bias] : []))),
  ];
  return tensors.filter((tensor) => tensor !== undefined);
}
