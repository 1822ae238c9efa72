// Stands in for `onnxruntime-web/webgpu` in the demo's build: the page runs onnxruntime-web on
// wasm and WebGPU through backend-webgpu, so the 27 MB WebGPU build of onnxruntime-web is not
// shipped. backend-onnx-web imports it only when its WebGPU execution provider is asked for.
throw new Error(
  "this demo ships onnxruntime-web's wasm build only; its WebGPU execution provider is not bundled (the page runs WebGPU through @reward-lens/backend-webgpu)",
);
