// Node-only test helpers of @reward-lens/search: a real OpenAI-compatible server on loopback.
export { startCompletionsTestServer, type CompletionsBody, type CompletionsTestServer, type ServerBehaviour } from './completions-test-server.js';
