// The published test helpers of @reward-lens/remote (Node: a real server on loopback), by name.
export { startCompletionsTestServer, type CompletionsBody, type CompletionsTestServer, type ServerBehaviour } from './completions-test-server.js';
