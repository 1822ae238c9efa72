import { isNodeRuntime, type OnnxWebExecutionProvider } from './execution-provider.js';

/** The onnxruntime-web module (every build has the same API). */
export type OnnxruntimeWeb = typeof import('onnxruntime-web');

export interface WasmSettings {
  /** `env.wasm.numThreads`. */
  numThreads?: number;
  /** `env.wasm.wasmPaths`: where the `.wasm` (and `.mjs`) files are served. */
  wasmPaths?: string | { wasm?: string; mjs?: string };
}

// In Node, onnxruntime-web's Node build (wasm, with worker threads; its browser builds cannot
// start threads there). The name is kept out of sight of bundlers: a browser bundle would
// otherwise carry its browser build and a 28 MB .wasm that never loads.
const NODE_BUILD = 'onnxruntime-web';

/**
 * The build an execution provider needs: the Node build in Node; in browsers `onnxruntime-web/wasm`
 * (loads `ort-wasm-simd-threaded.{mjs,wasm}`) or `onnxruntime-web/webgpu` (loads
 * `ort-wasm-simd-threaded.asyncify.{mjs,wasm}`). Each is imported on first use.
 */
function importBuild(provider: OnnxWebExecutionProvider): Promise<OnnxruntimeWeb> {
  if (isNodeRuntime()) return import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_BUILD) as Promise<OnnxruntimeWeb>;
  return provider === 'webgpu' ? import('onnxruntime-web/webgpu') : import('onnxruntime-web/wasm');
}

/**
 * What each build started with: onnxruntime-web reads `env.wasm` once, when its first session
 * starts the wasm. Kept on `globalThis` (like core's registries), so that every copy of this
 * package in a process (its ESM and CommonJS builds) sees what another copy started a build with.
 */
const startedKey = Symbol.for('reward-lens.onnx-web.started-builds.v1');
const processState = globalThis as unknown as Record<symbol, WeakMap<OnnxruntimeWeb, WasmSettings> | undefined>;
processState[startedKey] ??= new WeakMap<OnnxruntimeWeb, WasmSettings>();
const started = processState[startedKey];

/**
 * The build for `provider`, with `settings` applied to its `env.wasm` before its first session.
 * Returns notes for settings that could not take effect (the wasm had started with others, or a
 * page without cross-origin isolation cannot run threads).
 */
export async function loadOnnxruntimeWeb(provider: OnnxWebExecutionProvider, settings: WasmSettings): Promise<{ ort: OnnxruntimeWeb; notes: string[] }> {
  const ort = await importBuild(provider);
  const notes: string[] = [];
  const first = started.get(ort);
  if (first === undefined) {
    if (settings.numThreads !== undefined) ort.env.wasm.numThreads = settings.numThreads;
    if (settings.wasmPaths !== undefined) ort.env.wasm.wasmPaths = settings.wasmPaths;
    started.set(ort, { ...settings });
  } else {
    if (settings.numThreads !== undefined && settings.numThreads !== ort.env.wasm.numThreads) {
      notes.push(`numThreads ${settings.numThreads} ignored: onnxruntime-web already runs with ${String(ort.env.wasm.numThreads ?? 'its default')}`);
    }
    if (settings.wasmPaths !== undefined && JSON.stringify(settings.wasmPaths) !== JSON.stringify(first.wasmPaths)) {
      notes.push('wasmPaths ignored: onnxruntime-web already loaded its wasm');
    }
  }
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  if (!isNodeRuntime() && isolated === false && (ort.env.wasm.numThreads ?? 0) > 1) {
    notes.push('1 thread: the page is not cross-origin isolated, so onnxruntime-web cannot start wasm threads');
  }
  return { ort, notes };
}
