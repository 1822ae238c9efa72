import { rewardLensProject } from '../../vitest.shared.js';

// A build, packing and two npm installs on a shared 2-core machine: generous, never flaky.
export default rewardLensProject('package-tests', { testTimeout: 900_000 });
