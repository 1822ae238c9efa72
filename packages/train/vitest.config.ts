import { rewardLensProject } from '../../vitest.shared.js';

export default rewardLensProject('train', { testTimeout: 180_000 });
