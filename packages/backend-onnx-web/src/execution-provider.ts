import { InvalidInputError } from '@reward-lens/spec';

/** The onnxruntime-web execution providers this backend runs. */
export type OnnxWebExecutionProvider = 'wasm' | 'webgpu';

export interface ExecutionProviderChoice {
  provider: OnnxWebExecutionProvider;
  /** Why a provider asked for before it was passed over (empty when the first one runs). */
  skipped: string[];
}

const known: readonly string[] = ['wasm', 'webgpu'];

/**
 * The first requested provider that can run here (a pure function, tested on its own). `wasm`
 * always can; `webgpu` when `webgpuProblem` is null. When none of the requested ones can, wasm
 * runs, and `skipped` says why: the fallback is never silent.
 */
export function chooseExecutionProvider(requested: readonly OnnxWebExecutionProvider[] | undefined, webgpuProblem: string | null): ExecutionProviderChoice {
  const skipped: string[] = [];
  for (const provider of requested ?? ['wasm']) {
    if (!known.includes(provider))
      throw new InvalidInputError(`unknown execution provider "${String(provider)}" (known: ${known.join(', ')})`, { location: 'options.executionProviders' });
    if (provider === 'wasm') return { provider, skipped };
    if (webgpuProblem === null) return { provider, skipped };
    skipped.push(`webgpu: ${webgpuProblem}`);
  }
  return { provider: 'wasm', skipped };
}

/** True in Node (and runtimes that present themselves as Node), where onnxruntime-web runs its Node build. */
export function isNodeRuntime(): boolean {
  const process = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof process?.versions?.node === 'string';
}

interface NavigatorWithGpu {
  gpu?: { requestAdapter(): Promise<unknown> };
}

/** Why onnxruntime-web's WebGPU build cannot run here, or null when it can (a browser with a WebGPU adapter). */
export async function webgpuProblem(): Promise<string | null> {
  if (isNodeRuntime()) return "onnxruntime-web's WebGPU build runs only in browsers";
  const gpu = (globalThis as { navigator?: NavigatorWithGpu }).navigator?.gpu;
  if (gpu === undefined) return 'navigator.gpu is missing (no WebGPU in this browser, or not a secure context)';
  try {
    return (await gpu.requestAdapter()) === null ? 'navigator.gpu.requestAdapter() found no adapter' : null;
  } catch (error) {
    return `navigator.gpu.requestAdapter() failed (${error instanceof Error ? error.message : String(error)})`;
  }
}
