/** Side-effect entry: `import '@reward-lens/backend-onnx-node/register'` makes `onnx-node` resolvable. */
import { registerBackend } from '@reward-lens/spec';
import { onnxNodeBackendRegistration } from './onnx-node-backend-registration.js';

registerBackend(onnxNodeBackendRegistration);
