import { InvalidInputError } from '@reward-lens/core';
import { parsePrmBenchRecord, type PrmBenchRecord } from '../prmbench/prmbench-item.js';
import { openLines } from './read-lines.js';

/** PRMBench's JSONL, read whole (a few hundred records); a bad line is reported, not fatal. */
export async function readPrmBenchFile(path: string): Promise<{ records: PrmBenchRecord[]; failures: { location: string; code: string; message: string }[] }> {
  const records: PrmBenchRecord[] = [];
  const failures: { location: string; code: string; message: string }[] = [];
  let lineNumber = 0;
  for await (const line of await openLines(path)) {
    lineNumber++;
    if (line.trim() === '') continue;
    const location = `line ${lineNumber}`;
    try {
      records.push(parsePrmBenchRecord(JSON.parse(line), location));
    } catch (error) {
      const typed = InvalidInputError.isInstance(error)
        ? error
        : new InvalidInputError(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`, { location });
      failures.push({ location, code: typed.code, message: typed.message });
    }
  }
  return { records, failures };
}
