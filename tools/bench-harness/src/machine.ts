import { cpus } from 'node:os';

/** `machine: <cpu>, <n> logical cores, Node <version>` plus what the caller adds (runtime versions, threading). */
export function describeMachine(...extras: string[]): string {
  return [`machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} logical cores, Node ${process.version}`, ...extras].join(', ');
}
