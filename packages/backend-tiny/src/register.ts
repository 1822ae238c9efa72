/** Side-effect entry: `import '@reward-lens/backend-tiny/register'` makes `tiny` resolvable. */
import { registerBackend } from '@reward-lens/spec';
import { tinyBackendRegistration } from './tiny-backend-registration.js';

registerBackend(tinyBackendRegistration);
