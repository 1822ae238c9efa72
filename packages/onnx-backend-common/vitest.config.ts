import { rewardLensProject } from '../../vitest.shared.js';

export default rewardLensProject('onnx-backend-common');
