import { rewardLensBrowserProject } from '../../vitest.browser.shared.js';

export default rewardLensBrowserProject('backend-webgpu-browser', { testTimeout: 120_000 });
