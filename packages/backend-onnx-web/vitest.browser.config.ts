import { rewardLensBrowserProject } from '../../vitest.browser.shared.js';

// onnxruntime-web is served from node_modules as it is (not pre-bundled), so that its
// `new URL('*.wasm', import.meta.url)` finds the `.wasm` files beside it.
export default rewardLensBrowserProject('backend-onnx-web-browser', { optimizeDepsExclude: ['onnxruntime-web'] });
