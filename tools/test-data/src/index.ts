// The public API of @reward-lens/test-data (a private tool package of this repository), by name.
export { sharedDataPath } from './shared-data-path.js';
export { smallLlamaFields } from './small-llama.js';
