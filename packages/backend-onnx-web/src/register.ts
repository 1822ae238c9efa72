/** Side-effect entry: `import '@reward-lens/backend-onnx-web/register'` makes `onnx-web` resolvable. */
import { registerBackend } from '@reward-lens/core';
import { onnxWebBackendRegistration } from './onnx-web-backend-registration.js';

registerBackend(onnxWebBackendRegistration);
