/** `pnpm --filter @reward-lens/backend-tiny bench`: throughput of the tiny backend (run against source). */
await import('./forward-throughput.js');
