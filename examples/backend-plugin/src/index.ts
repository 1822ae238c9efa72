export { createFloat32Backend } from './float32-backend.js';
export { float32BackendRegistration } from './float32-registration.js';
