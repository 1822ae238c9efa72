// The public API of @reward-lens/cli: `main` runs the command line in-process (tests, embedding).
export { main } from './main.js';
export type { CliStreams } from './cli-streams.js';
