import type {} from './webgpu-types.js';
/**
 * Side-effect entry: `import '@reward-lens/backend-webgpu/register'` makes `webgpu` (hardware
 * adapters, chosen by `'auto'`) and `webgpu-software` (by name only) resolvable.
 */
import { registerBackend } from '@reward-lens/spec';
import { webGpuBackendRegistration, webGpuSoftwareBackendRegistration } from './webgpu-backend-registration.js';

registerBackend(webGpuBackendRegistration);
registerBackend(webGpuSoftwareBackendRegistration);
