import { rewardLensBrowserProject } from '../../vitest.browser.shared.js';

// The backend on a page's main thread in headless Chromium: the conformance suite on the kernels
// that `createTinyBackendAsync` (and so `ProcessRM.fromTiny`) gives there.
export default rewardLensBrowserProject('backend-tiny-browser');
