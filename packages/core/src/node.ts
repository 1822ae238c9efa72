// Node-only parts of @reward-lens/core: @reward-lens/loaders/node (they read and write files with node:fs).
export * from '@reward-lens/loaders/node';
