/**
 * Cross-package internals for first-party backends and tools. Not covered by semver:
 * users import from `@reward-lens/core`.
 */
export * from './backend/v1/index.js';
export * from './backend/registry.js';
export * from './backend/model-source.js';
export * from './model/index.js';
export * from './capabilities.js';
export * from './errors/index.js';
