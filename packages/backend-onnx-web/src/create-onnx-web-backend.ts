import type { BackendV1 } from '@reward-lens/spec';
import { createOrtBackend, type OnnxBackendOptions } from '@reward-lens/onnx-backend-common';
import type { InferenceSession } from 'onnxruntime-web';
import { chooseExecutionProvider, webgpuProblem, type OnnxWebExecutionProvider } from './execution-provider.js';
import { loadOnnxruntimeWeb, type WasmSettings } from './load-onnxruntime-web.js';
import { readModel } from './read-model.js';

export interface OnnxWebBackendOptions extends OnnxBackendOptions, WasmSettings {
  /**
   * Execution providers in order of preference (default `['wasm']`). `webgpu` runs where
   * onnxruntime-web's WebGPU build can (a browser with a WebGPU adapter); where it cannot, the
   * next one does, or wasm, and `info.description` says why.
   */
  executionProviders?: OnnxWebExecutionProvider[];
  /** Passed to onnxruntime-web over the defaults (the chosen execution provider, sequential, all optimizations, no memory patterns). */
  sessionOptions?: InferenceSession.SessionOptions;
}

/**
 * A backend that runs an ONNX decoder on onnxruntime-web: in browsers (wasm or WebGPU) and in
 * Node (wasm). `model` is the bytes of a model, or where to read it: an `http(s):` URL, a path in
 * Node, a URL relative to the page in browsers (the `config.json` beside it is read too).
 * Capabilities follow from the graph, as on backend-onnx-node; `info.description` names the
 * execution provider that runs it.
 *
 * @example
 * const backend = await createOnnxWebBackend('/models/prm/model.onnx', { executionProviders: ['webgpu', 'wasm'] });
 */
export async function createOnnxWebBackend(model: string | Uint8Array, options: OnnxWebBackendOptions = {}): Promise<BackendV1> {
  const { executionProviders, numThreads, wasmPaths, sessionOptions, ...shared } = options;
  // WebGPU is probed only when it comes before wasm in the preference order.
  const wantsWebgpu = executionProviders?.find((provider) => provider === 'wasm' || provider === 'webgpu') === 'webgpu';
  const choice = chooseExecutionProvider(executionProviders, wantsWebgpu ? await webgpuProblem() : null);
  const { ort, notes } = await loadOnnxruntimeWeb(choice.provider, { numThreads, wasmPaths });
  const file = typeof model === 'string' ? await readModel(model) : { bytes: model, configFromFile: undefined };
  const wasmThreads = ort.env.wasm.numThreads;
  const threadNote = `threads=${wasmThreads === undefined || wasmThreads === 0 ? "onnxruntime-web's default" : wasmThreads} (onnxruntime-web wasm)`;
  const runtimeNote = [`onnxruntime-web ${choice.provider} execution provider`, ...choice.skipped.map((reason) => `skipped ${reason}`), ...notes].join(', ');
  return createOrtBackend(file.bytes, {
    ...shared,
    name: 'onnx-web',
    ort,
    file: typeof model === 'string' ? model : shared.file,
    configFromFile: file.configFromFile,
    runtimeNote,
    threadNote,
    // No memory patterns: one is planned and kept per input shape, so a stream of varying lengths grows memory.
    sessionOptions: {
      executionProviders: [choice.provider],
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      enableMemPattern: false,
      ...sessionOptions,
    },
  });
}
