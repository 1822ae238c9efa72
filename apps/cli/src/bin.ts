#!/usr/bin/env node
import { main } from './main.js';
import { exitCodes } from './report-error.js';

// A reader that stops early (`reward-lens score ... | head`) closes the pipe: not a crash, but not
// every result was delivered either, so it has its own status (documented in the README).
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(exitCodes.outputClosed);
  throw error;
});

process.exitCode = await main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
