/** Side-effect entry: `import '@reward-lens/backend-onnx-web/register'` makes `onnx-web` resolvable. */
import { registerBackend } from '@reward-lens/spec';
import { onnxWebBackendRegistration } from './onnx-web-backend-registration.js';

registerBackend(onnxWebBackendRegistration);
