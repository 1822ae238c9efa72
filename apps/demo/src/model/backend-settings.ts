/**
 * Per-backend settings: onnxruntime-web on its wasm execution provider with one thread (a page
 * that is not cross-origin isolated cannot start wasm threads). Its `.wasm` is an asset of the
 * build (Vite follows the runtime's `new URL(..., import.meta.url)`), so nothing is fetched from
 * elsewhere.
 */
export function backendSettings(): Record<string, unknown> {
  return { 'onnx-web': { executionProviders: ['wasm'], numThreads: 1 } };
}
