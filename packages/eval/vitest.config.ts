import { rewardLensProject } from '../../vitest.shared.js';

export default rewardLensProject('eval', { testTimeout: 120_000 });
