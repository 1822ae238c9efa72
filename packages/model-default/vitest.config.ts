import { rewardLensProject } from '../../vitest.shared.js';

// The shipped model is checked on held-out organism problems: scoring hundreds of solutions on 2 shared cores needs time.
export default rewardLensProject('model-default', { testTimeout: 300_000 });
