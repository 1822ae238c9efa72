import { rewardLensProject } from '../../vitest.shared.js';

export default rewardLensProject('backend-onnx-web');
