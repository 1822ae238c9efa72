import { rewardLensProject } from '../../vitest.shared.js';

export default rewardLensProject('search-experiments');
