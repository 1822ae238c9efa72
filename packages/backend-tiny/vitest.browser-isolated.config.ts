import { rewardLensBrowserProject } from '../../vitest.browser.shared.js';

// The backend on a cross-origin isolated page (COOP and COEP headers): worker threads over one
// shared WebAssembly memory, as a page served with those headers gets them.
export default rewardLensBrowserProject('backend-tiny-browser-isolated', {
  include: ['src/**/*.isolated.browser.test.ts'],
  crossOriginIsolated: true,
});
