import { rewardLensProject } from '../../vitest.shared.js';

export default rewardLensProject('tool-llama2c');
