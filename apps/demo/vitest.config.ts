import { defineProject, mergeConfig } from 'vitest/config';
import { rewardLensProject } from '../../vitest.shared.js';

// The page's logic and the build's plugins in Node (against the packages' source, as every package's
// tests run). The page itself, built and driven in Chromium, is the demo-e2e project (vitest.e2e.config.ts).
export default mergeConfig(rewardLensProject('demo'), defineProject({ test: { include: ['src/**/*.test.ts', 'build/**/*.test.ts'] } }));
