import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type { BackendV1 } from '@reward-lens/spec';
import { configLocations, createOrtBackend, parseOnnxConfigJson, type OnnxBackendOptions, type OnnxModelConfig } from '@reward-lens/onnx-backend-common';
import { InferenceSession, Tensor } from 'onnxruntime-node';

export interface OnnxNodeBackendOptions extends OnnxBackendOptions {
  /** onnxruntime's intra-op threads (default: every core, `os.availableParallelism()`); `info.description` says how many. */
  intraOpThreads?: number;
  /** Passed to onnxruntime over the defaults (sequential execution, all graph optimizations, no memory patterns). */
  sessionOptions?: InferenceSession.SessionOptions;
}

/**
 * A backend that runs an ONNX decoder on onnxruntime-node: the layout of Hugging Face Optimum's
 * exports and of `@reward-lens/onnx-export`. `model` is a path (the `config.json` beside it, or
 * above its `onnx/` folder, and the external data beside it are read) or the bytes of a model. Capabilities follow from the graph (see the
 * README); a graph of any other layout, or a file onnxruntime cannot load, is a ModelLoadError.
 *
 * @example
 * const backend = await createOnnxNodeBackend('models/prm-onnx/model.onnx', { intraOpThreads: 1 });
 */
export async function createOnnxNodeBackend(model: string | Uint8Array, options: OnnxNodeBackendOptions = {}): Promise<BackendV1> {
  const { intraOpThreads, sessionOptions, ...shared } = options;
  const threads = sessionOptions?.intraOpNumThreads ?? intraOpThreads ?? availableParallelism();
  return createOrtBackend(model, {
    ...shared,
    name: 'onnx-node',
    threadNote: `threads=${threads} (onnxruntime intra-op)`,
    ort: { InferenceSession, Tensor },
    configFromFile: typeof model === 'string' ? await readConfigBeside(model) : undefined,
    sessionOptions: {
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      // A memory pattern is planned and kept per input shape: a stream of records of varying
      // lengths grew the process by hundreds of MB, and ran slower than without them.
      enableMemPattern: false,
      interOpNumThreads: 1,
      intraOpNumThreads: threads,
      ...sessionOptions,
    },
  });
}

/** The `config.json` beside a model file, or above its `onnx/` folder (the hub layout), when there is one. */
async function readConfigBeside(modelPath: string): Promise<OnnxModelConfig> {
  for (const path of configLocations(modelPath)) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      continue;
    }
    return parseOnnxConfigJson(text, path);
  }
  return {};
}
