// Node-only test helpers of @reward-lens/core (they read the file system).
export { sharedDataPath } from './shared-data-path.js';
