import { rewardLensProject } from '../../vitest.shared.js';

export default rewardLensProject('integration-tests', { testTimeout: 120_000 });
