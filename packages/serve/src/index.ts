// The public API of @reward-lens/serve, by name.
export { createRewardServer, type RewardServer } from './create-reward-server.js';
export type { RewardServerOptions } from './server-options.js';
export { stepScoreRecords, type RecordError, type RecordScorer } from './records/record-scorer.js';
export { UnsafeBindError } from './unsafe-bind-error.js';
export { isLoopbackHost } from './is-loopback-host.js';
