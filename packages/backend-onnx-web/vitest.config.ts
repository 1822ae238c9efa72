import { mergeConfig } from 'vitest/config';
import { rewardLensProject } from '../../vitest.shared.js';

// `*.browser.test.ts` run in Chromium, in the `backend-onnx-web-browser` project (vitest.browser.config.ts).
export default mergeConfig(rewardLensProject('backend-onnx-web'), { test: { exclude: ['**/node_modules/**', 'src/**/*.browser.test.ts'] } });
